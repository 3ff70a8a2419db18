// graph: couples=*.md dir=one valve=none tier=precommit
fn rule() {}
