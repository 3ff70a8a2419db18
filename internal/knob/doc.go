// Package knob is the knob engine: it loads each kit's knob table (TOML
// data embedded by package kits), parses the consumer's knob files in
// their line grammar, and answers every knob's value through one
// precedence.
//
// Contract:
//
//   - A knob's shape (scalar, indexed, keyed), default and validator are
//     its owning kit's table row; the kit is the one whose PREFIX_ spells
//     the name. A name no table owns is refused.
//   - Precedence, highest first: the environment (scalars only), the
//     local overlay, the tracked knob file, the table's default or
//     derivation. A file naming a knob replaces it whole.
//   - Knob files are found from the environment alone: GATE_SDK_GATES_DIR
//     (default "scripts") and each kit's PREFIX_KNOB_FILE and
//     PREFIX_LOCAL_KNOB_FILE. Relative paths resolve against Options.Dir;
//     the engine never reads the working directory.
//   - Each kit's files are read once per Set, at the kit's first
//     resolution, which also splices references and runs the validators.
//     Every finding of that resolution is collected into one *ConfigError;
//     a single refusal is a *Finding. Both render as "<file>:<line>: what
//     is wrong" and mean exit 2 to the caller.
//   - The environment is read through Options.Lookup at every call.
//   - The package spawns nothing and walks no directory; it reads the
//     files it names and stats the legacy ones.
//
// kits/gate-sdk/SPEC.md §The knob file and the knob engine states the rules as lettered
// assertions; the code marks each where it is enforced.
package knob
