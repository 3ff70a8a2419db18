package gates

import "os"

// Tests may read the cwd: they ship to no consumer.
func cwdForTest() (string, error) { return os.Getwd() }
