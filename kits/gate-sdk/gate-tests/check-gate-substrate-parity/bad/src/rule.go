package rule

// graph: couples=*.md dir=one valve=none tier=precommit
var header = "# graph: in a string is no annotation"
