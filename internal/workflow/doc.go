// Package workflow is the one reader of GitHub Actions YAML that the
// check-action-* gates share.
//
// It is line-oriented on purpose: it reads indentation, keys, sequence
// dashes and comments, and never resolves anchors, tags or flow syntax
// beyond the few shapes the gates need. What it offers:
//
//   - Read turns bytes into a File: an indentation tree of keys and items
//     (Node), the Actions-shape predicate (Shape), the job partition and
//     each job's steps with the keys the gates read (runs-on, env,
//     permissions, uses, shell, run, working-directory, defaults).
//   - Extract is check-action-run-shell's and check-action-run-path's view:
//     the run: bodies, dedented by their first line and with every GitHub
//     expression replaced by ${GHEXPR}, each stamped with the dialect its
//     step really runs. It refuses, with a *Refusal, the constructs it
//     cannot reassemble byte-exactly.
//   - Walk is the job-partitioned walk of check-action-gh-repo,
//     check-action-permissions and check-action-step-order: gh invocations
//     in command position, checkout steps, the GH_REPO ladder, token
//     references, exemption markers bound by indentation, and (on request)
//     uses: and word events. It refuses nothing; ambiguity resolves toward
//     detecting more.
//   - UsesRefs and Pinned are check-action-pinning's line recogniser;
//     ScriptTokens is the "which word is a script" predicate run-path reads.
//   - Corpus narrows a tracked listing to the files a gate reads.
//
// Nothing here starts a process, touches the disk or keeps package state;
// every function is pure over the bytes it is handed, and no input makes
// one panic (FuzzRead holds that).
package workflow
