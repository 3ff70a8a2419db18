// Package workflow is the one reader of GitHub Actions YAML that the
// check-action-* gates share.
//
// The structure comes from a YAML parser's node tree (go.yaml.in/yaml/v3),
// so block and flow collections, JSON, quoted keys, anchors, aliases and
// merge keys, a byte-order mark and any line ending read alike. The source
// lines are kept beside the tree, cut where the parser breaks lines, and
// read only where bytes matter: a run: block's body, comments, columns.
// What it offers:
//
//   - Read turns bytes into a File: the Actions-shape predicate (Shape),
//     the job partition and each job's steps with the entries the gates
//     read (runs-on, env, permissions, uses, shell, run, working-directory,
//     defaults), or, for a file the parser rejects, the refusal and
//     whether the file looks like a workflow or an action (Suspect).
//   - Extract is check-action-run-shell's and check-action-run-path's view:
//     the run: bodies (a literal or folded block, any chomping and
//     indentation indicator, rebuilt from its source lines as the YAML
//     scanner builds it and held to the parser's value, each byte keeping
//     its file line and column), every GitHub expression replaced by
//     ${GHEXPR} (one spanning lines joined onto its first) and every
//     ShellCheck directive neutralised, each stamped with the dialect and
//     working directory its step really has (step, job defaults.run,
//     workflow defaults.run). It refuses, with a *Refusal, only what
//     GitHub refuses too: a ${{ that never closes, a defaults.run.shell
//     that is not a string.
//   - Walk is the job walk of check-action-gh-repo, check-action-permissions
//     and check-action-step-order: gh invocations in command position,
//     checkout steps, the GH_REPO ladder, token references, exemption
//     markers bound to what they precede, and (on request) uses: and word
//     events. It refuses nothing; ambiguity resolves toward detecting more.
//   - UsesRefs and Pinned are check-action-pinning's recogniser;
//     ScriptTokens is the "which word is a script" predicate run-path reads.
//
// Nothing here starts a process, touches the disk or keeps package state;
// every function is pure over the bytes it is handed, and no input makes
// one panic (FuzzRead holds that).
package workflow
