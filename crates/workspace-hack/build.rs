// Cargo resolves `[build-dependencies]` only for a package with a build
// script: this one exists so that the host-side features above count.
fn main() {}
