package gates

// A git-lfs pointer is the small text file git records in place of a file
// whose content lives in an LFS store. A clone or a hook without that
// content reads only the pointer, so a rule that judges content has not
// judged the file: it says so rather than counting it.

import "bytes"

// lfsPointerClass marks, among a file's cached records, that the file is
// a git-lfs pointer: a count, never a finding.
const lfsPointerClass = "lfs-pointer"

// lfsPointerMax bounds a pointer's size: the LFS spec keeps pointers
// below 1024 bytes, and git-lfs reads nothing larger as one.
const lfsPointerMax = 1024

// lfsVersions are the version lines git-lfs reads as a pointer's first
// line: the released spec's, and the pre-release one it still accepts.
var lfsVersions = [][]byte{
	[]byte("version https://git-lfs.github.com/spec/v1"),
	[]byte("version https://hawser.github.com/spec/v1"),
}

// isLFSPointer reports whether data is a git-lfs pointer file: below the
// size bound, every line "key value" ended by a newline, the first the
// version line, the rest in ascending key order (keys of lowercase
// letters, digits, '.' and '-', the spec's extension lines included),
// among them "oid sha256:<64 lowercase hex>" and "size <digits>".
func isLFSPointer(data []byte) bool {
	if len(data) == 0 || len(data) >= lfsPointerMax || data[len(data)-1] != '\n' {
		return false
	}
	lines := bytes.Split(data[:len(data)-1], []byte{'\n'})
	versioned := false
	for _, v := range lfsVersions {
		versioned = versioned || bytes.Equal(lines[0], v)
	}
	if !versioned {
		return false
	}
	oid, size := false, false
	var last []byte
	for _, l := range lines[1:] {
		key, value, ok := bytes.Cut(l, []byte{' '})
		if !ok || len(key) == 0 || len(value) == 0 || !lfsKey(key) {
			return false
		}
		// Past the version line the spec sorts the keys, each once: text
		// after a pointer's last line breaks the order.
		if last != nil && bytes.Compare(key, last) <= 0 {
			return false
		}
		last = key
		switch string(key) {
		case "oid":
			hex, ok := bytes.CutPrefix(value, []byte("sha256:"))
			if !ok || len(hex) != 64 || !allBytes(hex, func(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' }) {
				return false
			}
			oid = true
		case "size":
			if !allBytes(value, func(b byte) bool { return b >= '0' && b <= '9' }) {
				return false
			}
			size = true
		}
	}
	return oid && size
}

// lfsKey reports whether key is spelled as the LFS spec's keys are.
func lfsKey(key []byte) bool {
	return allBytes(key, func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '.' || b == '-' })
}

func allBytes(s []byte, ok func(byte) bool) bool {
	for _, b := range s {
		if !ok(b) {
			return false
		}
	}
	return true
}
