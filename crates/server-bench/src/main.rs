//! Side-by-side load benchmark of the generated router and a hand-written
//! axum baseline doing the same work.
//!
//! Each round of `run` starts both servers as child processes with one
//! worker thread each, drives them with `wrk` for each request kind, one
//! after the other (which goes first alternates), and reads the server's CPU
//! time from `/proc` before and after each load. It prints CPU per request,
//! requests per second and p99 latency per kind and server (medians over the
//! rounds), with the generated/hand-written ratios (medians of the rounds'
//! ratios). `crates/server-bench/bench.sh` installs `wrk` and runs it.
//!
//! `streams` compares the generated event stream with the same libraries
//! used by hand (`streams.rs`).

mod baseline;
mod generated;
mod inprocess;
mod load;
mod streams;
mod work;

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(about = "Load benchmark: the generated router against a hand-written axum server")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Server {
    Generated,
    Baseline,
}

#[derive(Subcommand)]
enum Command {
    /// Serve one of the two servers on one worker thread (used by `run`).
    Serve {
        #[arg(value_enum)]
        server: Server,
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: SocketAddr,
    },
    /// Run the benchmark and print the comparison.
    Run(load::Settings),
    /// Stream server-sent events through the generated server and client,
    /// and through the same libraries by hand; print the comparison.
    Streams(streams::Settings),
    /// Send requests of one kind to one server in process, without sockets
    /// (a steady workload to profile, e.g. under `perf record` or callgrind).
    Repeat {
        #[arg(value_enum)]
        server: Server,
        /// `get`, `post-json`, `post-form` or `post-rejected`.
        kind: String,
        #[arg(long, default_value_t = 100_000)]
        requests: u64,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Serve { server, listen } => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime");
            runtime.block_on(serve(server, listen));
            ExitCode::SUCCESS
        }
        Command::Repeat {
            server,
            kind,
            requests,
        } => match inprocess::repeat(server, &kind, requests) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        },
        Command::Streams(settings) => match streams::run(&settings) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        },
        Command::Run(settings) => match load::run(&settings) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

async fn serve(server: Server, listen: SocketAddr) {
    let router = inprocess::router(server);
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .expect("the listen address is free");
    // The parent reads the bound address from the first line.
    println!("{}", listener.local_addr().expect("a bound address"));
    axum::serve(listener, router)
        .await
        .expect("the server runs");
}
