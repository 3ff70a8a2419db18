// Package installer is a fixture's stand-in for the installer's recipe.
package installer

// Gates follows §check-cited's ruling; the citation registers nothing.
var Gates = []string{"check-named"}
