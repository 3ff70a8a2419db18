// Package githook is the binary's git-hook family: the --git-hook arm a
// placed hook starts, the launcher a binary becomes when it is started
// under a served hook's name, the --install-hooks opt-in that places the
// hooks, and --measure-commit, which times what the pre-commit hook would
// run over every tracked path.
//
// Contract:
//   - The served hooks are pre-commit and commit-msg, nothing else. The
//     launcher decides from its start name alone, before any argument is
//     read, and reads exactly one knob (GATE_SDK_NATIVE_BIN) with a reader
//     of its own that leaves every other knob-file line unread.
//   - The hook arm selects through the Registry it is handed (the same
//     selection --for uses), runs the selected members one at a time in
//     registry order, runs on past a failure so every red member is
//     reported, and prints the byte-exact report the smokes parse. A .gate member runs in process (World.
//     Compiled) over one staged snapshot: at pre-commit every member judges
//     the index, never the work tree. A staged change that adds, removes,
//     retypes or chmods a path also runs every compiled member reading the
//     tracked listing or modes (Member.Shape), so the hook's verdict is the
//     battery's on the tree the commit records. A .sh member is started by its path,
//     and refused before anything runs when a path it reads is partially
//     staged. The arm passes no knob to members; in a linked worktree it
//     adds GIT_WORK_TREE to the environment of every process a member
//     starts and to no other.
//   - The launcher runs the hook in its own process when the binary the
//     knob names is provably the hook's own bytes (SameBuild: the stat
//     fields --install-hooks recorded for both), and starts it otherwise.
//   - After a rule-input change a passing pre-commit may leave the files
//     the commit does not change to the battery; it says so on its clean
//     line and records the debt (gates-debt), which a green battery
//     settles.
//   - Placement never leaves a hook absent: each file is written under an
//     exclusively created sibling name (process id plus a per-run random
//     value) and renamed over the hook, and the sibling is removed on every
//     failure path.
//   - Every process start goes through internal/spawn and every path test
//     through internal/walk.
package githook
