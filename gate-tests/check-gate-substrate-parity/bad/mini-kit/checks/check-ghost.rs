// The ghost rule, beside its descriptor, where the payload would carry it.
fn main() {}
