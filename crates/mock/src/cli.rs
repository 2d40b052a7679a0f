//! `cargo xtask mock` as a function: the xtask binary only parses arguments.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use openapi_crates_runtime::ServeOptions;

use crate::{Mock, Options};

/// Reads the spec at `spec` (relative to `root` unless absolute), serves
/// its mock on `listen` until the process ends, and returns the exit
/// status: 1 when the spec is refused (every problem printed to `stderr`
/// with its file and line, as `cargo xtask codegen` prints them) or the
/// address cannot be bound. The start-up time is printed to `stdout`.
pub fn mock(
    root: &Path,
    spec: &Path,
    listen: &str,
    options: Options,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let started = Instant::now();
    let mock = match Mock::load(root, spec, options) {
        Ok(mock) => mock,
        Err(problems) => {
            for problem in problems.iter() {
                let _ = writeln!(stderr, "{problem}");
            }
            let _ = writeln!(stderr, "the mock cannot serve {}", spec.display());
            return 1;
        }
    };
    if !mock.warnings().is_empty() {
        let _ = writeln!(stderr, "{}", mock.warnings().summary());
    }
    let router = match mock.router(mock.router_options()) {
        Ok(router) => router,
        Err(problem) => {
            let _ = writeln!(stderr, "{problem}");
            return 1;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            let _ = writeln!(stderr, "cannot start the runtime: {err}");
            return 1;
        }
    };
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(listen).await {
            Ok(listener) => listener,
            Err(err) => {
                let _ = writeln!(stderr, "cannot listen on {listen}: {err}");
                return 1;
            }
        };
        let address = listener
            .local_addr()
            .map_or_else(|_| listen.to_string(), |address| address.to_string());
        let _ = writeln!(
            stdout,
            "mock of {} ({} operations, seed {}) started in {} ms: http://{address}{}",
            mock.title(),
            mock.operations(),
            options.seed,
            started.elapsed().as_millis(),
            mock.base_path(),
        );
        let _ = stdout.flush();
        match openapi_crates_runtime::serve(listener, router, ServeOptions::default()).await {
            Ok(()) => 0,
            Err(err) => {
                let _ = writeln!(stderr, "the mock stopped: {err}");
                1
            }
        }
    })
}
