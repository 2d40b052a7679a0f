//! `openapi-crates`: the installed command. Everything but the allocator is
//! in the library, which `cargo xtask` shares.

use std::process::ExitCode;

use clap::Parser;

// Codegen allocates and frees millions of small tokens: mimalloc halves its
// time next to the system allocator, and its memory stays lower too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = openapi_crates::Cli::parse();
    ExitCode::from(openapi_crates::run(
        cli,
        &openapi_crates::Defaults::default(),
    ))
}
