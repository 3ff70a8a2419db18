// Package shellkit holds the tests that keep the kit's shell surface honest:
// the front ends (kits/gate-sdk/bin/run-gates.sh and its PowerShell twin),
// the fixture-suite loop, lib/gate.sh and lib/test-hermetic.sh, and the
// copy-ready gate template.
//
// The package has no production code. Its tests spawn bash over those
// scripts in scratch git repositories and hold them to the binary: the
// fail-open set equal to internal/cli's, the pre-binary knob accessors
// equal to `gates --emit knob-values`, gate_path_rooted equal to
// walk.PathRoot, and every kit shell file clean under shellcheck -S warning.
package shellkit
