//go:build linux

package treewatch

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/gate-sdk/gates/internal/walk"
)

// Supported reports whether this platform has the watcher.
const Supported = true

// watchMask is what each watched directory reports: an entry's bytes or
// attributes changed, an entry made, removed or moved in or out, and the
// directory itself removed or moved. IN_ONLYDIR refuses a path that is no
// longer a directory; IN_DONT_FOLLOW a link put in a directory's place.
const watchMask = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_CLOSE_WRITE |
	syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_DELETE_SELF |
	syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_MOVE_SELF |
	syscall.IN_ONLYDIR | syscall.IN_DONT_FOLLOW

// fileMask is what each regular file in a watched directory reports, on
// its inode, whatever name it is reached by: a write or a new link through
// a name outside the watched directories (a hard link) raises no event on
// the directory, only on the file's own watch.
const fileMask = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_CLOSE_WRITE |
	syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_DONT_FOLLOW

// Server is a running watcher.
type Server struct {
	cfg    Config
	ln     *net.UnixListener
	sockID string // the socket file's identity, "" for an abstract name
	lock   int    // the state directory's watcher lock, held while serving

	mu     sync.Mutex
	fd     int      // the inotify instance, -1 before the first arming
	file   *os.File // fd in the runtime's poller, for the reader
	status Status
	top    int32            // the watch descriptor of the top
	dirs   map[int32]string // each directory watch's path
	placed int              // the watches this arming holds
	budget int              // the most it may hold (a share of the user's)
	last   time.Time
	buf    []byte

	once sync.Once
	done chan struct{}
	wg   sync.WaitGroup
}

// Listen binds the watcher's socket. A socket file left at the path by a
// watcher that is gone (or by anyone) is replaced; a watcher that finds its
// socket file replaced exits (a newer watcher serves the tree).
func Listen(cfg Config) (*Server, error) {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	// One watcher a state directory: the lock is held for the process's
	// life, and a second watcher started meanwhile (two Stops in a row,
	// each finding none answering yet) ends at once.
	lock, err := syscall.Open(walk.Child(cfg.GitDir, lockName), syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(lock, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		syscall.Close(lock)
		return nil, err
	}
	if !strings.HasPrefix(cfg.Socket, "@") {
		_ = os.Remove(cfg.Socket)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: cfg.Socket, Net: "unix"})
	if err != nil {
		syscall.Close(lock)
		return nil, err
	}
	ln.SetUnlinkOnClose(false)
	s := &Server{cfg: cfg, ln: ln, lock: lock, fd: -1, top: -1, last: time.Now(), buf: make([]byte, 64<<10), done: make(chan struct{})}
	if !strings.HasPrefix(cfg.Socket, "@") {
		s.sockID, _ = identity(cfg.Socket)
	}
	return s, nil
}

// identity answers a file's device and inode, spelled.
func identity(p string) (string, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		return "", false
	}
	return strconv.Itoa(int(st.Dev)) + ":" + strconv.Itoa(int(st.Ino)), true
}

// Serve arms the watches and answers requests until a stop request, the
// idle time, or the work tree, the git directory or the socket file goes.
func (s *Server) Serve() {
	s.mu.Lock()
	s.armLocked()
	s.mu.Unlock()
	s.wg.Add(2)
	go s.accept()
	go s.tick()
	<-s.done
	s.ln.Close()
	s.mu.Lock()
	s.closeLocked()
	s.mu.Unlock()
	s.wg.Wait()
	if s.sockID != "" {
		if id, ok := identity(s.cfg.Socket); ok && id == s.sockID {
			_ = os.Remove(s.cfg.Socket)
		}
	}
	syscall.Close(s.lock)
}

// lockName is the watcher's lock file in the state directory.
const lockName = "tree-watch.lock"

// Tell sends cmd to whatever listens at addr without asking who it is: a
// stop request is harmless to anyone, and it ends a watcher of an earlier
// build (another executable, which Ask refuses) that would otherwise hold
// the state directory's lock until it is idle.
func Tell(addr, cmd string) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: addr, Net: "unix"})
	if err != nil {
		return
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte(cmd + "\n")); err == nil {
		_, _ = bufio.NewReader(c).ReadString('\n')
	}
}

// Close ends Serve.
func (s *Server) Close() { s.once.Do(func() { close(s.done) }) }

// Done is closed when the server is told to end.
func (s *Server) Done() <-chan struct{} { return s.done }

// Status answers the current token, every event queued so far counted.
func (s *Server) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drainLocked()
	return s.status
}

// Inject feeds the watcher an event as the kernel would report it on the
// top's watch (a test's way to raise what it cannot provoke, such as a
// queue overflow).
func (s *Server) Inject(mask uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.eventLocked(s.top, mask)
}

func (s *Server) closeLocked() {
	if s.file != nil {
		s.file.Close() // wakes the reader, which then ends
		s.file, s.fd = nil, -1
	}
	s.dirs = nil
}

// armLocked places a new inotify instance's watches on the directories
// Dirs names, under a new epoch with the count at zero. Any directory that
// cannot be watched leaves the watcher unarmed.
func (s *Server) armLocked() {
	s.closeLocked()
	s.status = Status{Epoch: newEpoch()}
	dirs, err := s.cfg.Dirs()
	if err != nil || len(dirs) == 0 {
		return
	}
	s.status.Digest = DirsDigest(dirs)
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return
	}
	s.fd = fd
	s.file = os.NewFile(uintptr(fd), "inotify")
	s.dirs = make(map[int32]string, len(dirs))
	s.placed, s.budget = 0, s.cfg.Budget
	if s.budget <= 0 {
		s.budget = watchBudget()
	}
	ok := true
	for _, d := range dirs {
		p := s.cfg.Top
		if d != "" {
			p = walk.Child(s.cfg.Top, d)
		}
		wd, err := syscall.InotifyAddWatch(fd, p, watchMask)
		if err != nil {
			// ENOSPC (max_user_watches), a directory gone or no longer
			// one: the count cannot vouch for the memo's directories.
			ok = false
			break
		}
		s.dirs[int32(wd)] = p
		if s.placed++; s.placed > s.budget {
			ok = false
			break
		}
		if d == "" {
			s.top = int32(wd)
		}
		// assertion M (stop-gates): every regular file of a watched
		// directory is watched on its own inode. One that appears later
		// is added when its creation is read (addFileLocked), before
		// any token that counts it is answered.
		if !s.watchFilesLocked(p) {
			ok = false
			break
		}
	}
	s.status.Armed = ok
	if !ok {
		// The watches placed so far are the user's to spend elsewhere
		// (an editor's watcher, another tree's): released at once.
		s.closeLocked()
		return
	}
	f := s.file
	s.wg.Add(1)
	go s.read(f)
}

// watchBudget answers how many watches one arming may hold: a quarter of
// the user's limit (fs.inotify.max_user_watches), so a large tree leaves
// the rest to the other programs watching files; a tree needing more is
// not armed and its Stops stat as before. 8,192, the kernel's old
// default, stands in for a limit that cannot be read.
func watchBudget() int {
	limit := 8192
	if data, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches"); err == nil { // consumer-value-exempt: the kernel's own setting
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && n > 0 {
			limit = n
		}
	}
	return max(limit/4, 1)
}

// watchFilesLocked places a file watch on each regular file in dir.
func (s *Server) watchFilesLocked(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.Type().IsRegular() && !s.addFileLocked(dir+"/"+e.Name()) {
			return false
		}
	}
	return true
}

// addFileLocked watches the file at p if it is a regular file; false when
// the watch could not be placed (ENOSPC). A name gone or not a regular
// file by now needs none: its removal or replacement is an event of its
// directory.
func (s *Server) addFileLocked(p string) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return true
	}
	if _, err := syscall.InotifyAddWatch(s.fd, p, fileMask); err != nil {
		return err == syscall.ENOENT || err == syscall.ELOOP
	}
	s.placed++
	return s.placed <= s.budget
}

// read waits for events on f and counts them, each batch under the lock
// (so a query that drains finds nothing half counted); it ends when f is
// closed or replaced. The lock is taken only between waits, never inside
// the poller's callback: a Close under the lock (a new arming, the end)
// waits for the callback to return, and a callback waiting for the lock
// would hold both forever.
func (s *Server) read(f *os.File) {
	defer s.wg.Done()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	for {
		waited := false
		err := rc.Read(func(uintptr) bool {
			if !waited {
				waited = true
				return false // wait until the instance is readable
			}
			return true
		})
		s.mu.Lock()
		current := s.file == f
		if current && err == nil {
			s.drainLocked()
		}
		s.mu.Unlock()
		if err != nil || !current {
			return
		}
	}
}

// drainLocked reads every event queued on the instance and counts it.
func (s *Server) drainLocked() {
	for s.fd >= 0 {
		n, err := syscall.Read(s.fd, s.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			if err != syscall.EAGAIN {
				s.status.Armed = false
			}
			return
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&s.buf[off]))
			name := s.buf[off+syscall.SizeofInotifyEvent : min(n, off+syscall.SizeofInotifyEvent+int(ev.Len))]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			s.eventLocked(ev.Wd, ev.Mask)
			// A file made or moved into a watched directory is watched
			// from now on.
			if dir, ok := s.dirs[ev.Wd]; ok && len(name) > 0 && ev.Mask&(syscall.IN_CREATE|syscall.IN_MOVED_TO) != 0 && ev.Mask&syscall.IN_ISDIR == 0 {
				if !s.addFileLocked(dir + "/" + string(name)) {
					s.status.Armed = false
				}
			}
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

// eventLocked counts one event. A lost event (the queue overflowed) or a
// watch that ended (its directory removed, moved or unmounted) leaves the
// count unable to vouch until the next arming; the top gone ends the
// watcher.
func (s *Server) eventLocked(wd int32, mask uint32) {
	s.status.Count++
	// assertion M (stop-gates): what the count may have missed makes it
	// vouch for nothing until the watches are placed anew: a lost event,
	// a file system unmounted, a watched directory's watch ended (the
	// directory removed or moved). A file's watch that ends (the file
	// removed) loses nothing: its directory saw the removal.
	if mask&(syscall.IN_Q_OVERFLOW|syscall.IN_UNMOUNT) != 0 {
		s.status.Armed = false
	}
	if _, dir := s.dirs[wd]; dir && mask&(syscall.IN_IGNORED|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF) != 0 {
		s.status.Armed = false
	}
	if wd == s.top && mask&(syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF|syscall.IN_UNMOUNT) != 0 {
		if _, err := os.Lstat(s.cfg.Top); err != nil {
			s.Close()
		}
	}
}

func newEpoch() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		// No randomness: the time keeps epochs of two armings apart.
		return "t" + strconv.FormatInt(time.Now().UnixNano(), 10)
	}
	return hex.EncodeToString(b[:])
}

// tick ends the watcher when it has been idle too long or what it serves
// is gone.
func (s *Server) tick() {
	defer s.wg.Done()
	every := min(max(s.cfg.Idle/4, 20*time.Millisecond), 10*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		s.mu.Lock()
		idle := time.Since(s.last) > s.cfg.Idle
		s.mu.Unlock()
		_, topErr := os.Lstat(s.cfg.Top)
		_, gitErr := os.Lstat(s.cfg.GitDir)
		moved := false
		if s.sockID != "" {
			id, ok := identity(s.cfg.Socket)
			moved = !ok || id != s.sockID
		}
		if idle || topErr != nil || (s.cfg.GitDir != "" && gitErr != nil) || moved {
			s.Close()
			return
		}
	}
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			select {
			case <-s.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.Close()
			return
		}
		s.answer(c)
	}
}

// answer serves one request: query, arm or stop. Only a caller of the
// watcher's own user is answered.
func (s *Server) answer(c *net.UnixConn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if uid, _, ok := peer(c); !ok || uid != os.Getuid() {
		return
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	s.mu.Lock()
	s.last = time.Now()
	switch strings.TrimSpace(line) {
	case "query":
		s.drainLocked()
	case "arm":
		// Answered at once; the arming (a watch a directory and a file)
		// holds the lock, so the next request waits for it and never
		// sees a half-armed watcher.
		_, _ = c.Write([]byte(Status{}.encode()))
		s.armLocked()
		s.mu.Unlock()
		return
	case "stop":
		s.mu.Unlock()
		_, _ = c.Write([]byte("ok - 0 - 0\n"))
		s.Close()
		return
	default:
		s.mu.Unlock()
		return
	}
	st := s.status
	s.mu.Unlock()
	_, _ = c.Write([]byte(st.encode()))
}

// peer answers the uid and pid of the process at the other end of c.
func peer(c *net.UnixConn) (uid, pid int, ok bool) {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0, 0, false
	}
	var cred *syscall.Ucred
	var cerr error
	if err := rc.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || cerr != nil || cred == nil {
		return 0, 0, false
	}
	return int(cred.Uid), int(cred.Pid), true
}

// Address answers where the watcher of the git directory gitDir answers:
// a socket file in the state directory, or, where that path is longer
// than a socket address holds, an abstract name from a digest of the git
// directory.
func Address(stateDir, gitDir string) string {
	p := walk.Child(stateDir, SocketName)
	if len(p) < 108 {
		return p
	}
	return "@gates-tree-watch-" + DirsDigest([]string{gitDir})[:32]
}

// SocketName is the watcher's socket file in the state directory.
const SocketName = "tree-watch.sock"

// selfExe is the file this process runs, as /proc names it; a test points
// it elsewhere to play a foreign watcher.
var selfExe = "/proc/self/exe"

// Ask sends cmd (query, arm or stop) to the watcher at addr and answers its
// status. A watcher that is not a process of this user running this very
// executable (same device and inode) is refused: any process could listen
// on the socket, and only this binary's watcher is trusted to count.
func Ask(addr, cmd string) (Status, error) {
	// assertion L (stop-gates): the peer is authenticated before it is
	// asked anything.
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: addr, Net: "unix"})
	if err != nil {
		return Status{}, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	uid, pid, ok := peer(c)
	if !ok || uid != os.Getuid() {
		return Status{}, errForeign
	}
	self, ok1 := identity2(selfExe)
	theirs, ok2 := identity2("/proc/" + strconv.Itoa(pid) + "/exe")
	if !ok1 || !ok2 || self != theirs {
		return Status{}, errForeign
	}
	if _, err := c.Write([]byte(cmd + "\n")); err != nil {
		return Status{}, err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return Status{}, err
	}
	if cmd == "stop" {
		return Status{}, nil
	}
	st, ok := decodeStatus(line)
	if !ok {
		return Status{}, errors.New("treewatch: an answer out of shape")
	}
	return st, nil
}

// errForeign is a socket whose listener is not this binary's watcher.
var errForeign = errors.New("treewatch: the socket's listener is not this binary's watcher")

// IsForeign reports whether err is Ask's refusal of an unauthenticated
// listener.
func IsForeign(err error) bool { return errors.Is(err, errForeign) }

// identity2 answers the identity of the file p names, following links
// (/proc/<pid>/exe is one).
func identity2(p string) (string, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		return "", false
	}
	return strconv.Itoa(int(st.Dev)) + ":" + strconv.Itoa(int(st.Ino)), true
}
