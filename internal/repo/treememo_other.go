//go:build !linux

package repo

// Off Linux the memo is never made nor trusted: every Stop asks git.

func fileStamp(string, bool, fileTime) (string, bool) { return "", false }

func fsClock(string) (fileTime, bool) { return fileTime{}, false }

func trackedStatClean(string, []Entry) bool { return false }
