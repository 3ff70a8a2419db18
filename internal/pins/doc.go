// Package pins holds the architecture pins: tests that parse every Go file
// of the module and fail when a process is started outside internal/spawn,
// a tree is walked or the working directory read outside internal/walk, the
// working directory is changed anywhere, the environment is written outside
// the one test helper file, the binary's own path is read outside
// internal/spawn, a tracked listing is read in git's quoted line form, or a
// repository probe is spawned outside the crosser. The package has no code
// of its own; its tests are the product.
package pins
