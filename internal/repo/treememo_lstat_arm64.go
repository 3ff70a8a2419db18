//go:build linux

package repo

import "syscall"

const sysFstatat = syscall.SYS_FSTATAT
