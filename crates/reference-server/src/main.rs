//! `tenant-reference-server`: serve the reference implementation, or mint a
//! development token.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use openapi_crates_runtime::ServeOptions;
use tenant_reference_server::{
    AppState, Config, DEVELOPMENT_KEY, Fixtures, RateLimit, TokenIssuer, app,
};

#[derive(Parser)]
#[command(
    about = "Reference server of the tenant management API (in memory, for tests and local development)"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Print an access token for a client, to try the API with curl.
    MintToken(MintArgs),
}

#[derive(Args, Clone)]
struct TenantArgs {
    /// Tenant host (and port); tokens carry the audience https://{tenant}/api/v2/.
    #[arg(long, default_value = "localhost:8080")]
    tenant: String,
    /// HS256 key that signs tokens [default: a fixed development key].
    #[arg(long, env = "REFERENCE_SERVER_SIGNING_KEY")]
    signing_key: Option<String>,
}

impl TenantArgs {
    fn signing_key(&self) -> Vec<u8> {
        self.signing_key
            .as_ref()
            .map_or_else(|| DEVELOPMENT_KEY.to_vec(), |key| key.as_bytes().to_vec())
    }
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// JSON fixtures (clients, actions, modules, templates, APNs provider)
    /// [default: the shipped fixtures/default.json].
    #[arg(long)]
    fixtures: Option<PathBuf>,
    /// How many resources of each type the tenant may create.
    #[arg(long, default_value_t = 100)]
    entity_limit: usize,
    /// Requests per client per window; rate limiting is off when absent.
    #[arg(long)]
    rate_limit: Option<u32>,
    /// Length of a rate-limit window, in seconds.
    #[arg(long, default_value_t = 60)]
    rate_window: u64,
    /// Seconds a client may take to send a request's headers (or stay idle
    /// between requests) before its connection is closed.
    #[arg(long, default_value_t = 10)]
    header_timeout: u64,
    /// Seconds a request may take, body and answer included, before it gets 408.
    #[arg(long, default_value_t = 30)]
    request_timeout: u64,
    /// Connections open at once; more are closed as they arrive.
    #[arg(long, default_value_t = 1024)]
    max_connections: usize,
    #[command(flatten)]
    tenant: TenantArgs,
}

#[derive(Args)]
struct MintArgs {
    /// The client the token is for.
    #[arg(long, default_value = "dev-global")]
    client_id: String,
    /// A scope to grant; repeat for more.
    #[arg(long = "scope")]
    scopes: Vec<String>,
    /// Lifetime of the token, in seconds.
    #[arg(long, default_value_t = 3600)]
    expires_in: u64,
    #[command(flatten)]
    tenant: TenantArgs,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::MintToken(args)) => {
            let issuer = TokenIssuer::new(&args.tenant.tenant, &args.tenant.signing_key());
            println!(
                "{}",
                issuer.issue(
                    &args.client_id,
                    &args.scopes,
                    Duration::from_secs(args.expires_in)
                )
            );
            std::process::ExitCode::SUCCESS
        }
        None => match serve(cli.serve).await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: {err}");
                std::process::ExitCode::FAILURE
            }
        },
    }
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // One line per request (tower_http=debug) is a kilobyte of
                // log per request under load: opt in with RUST_LOG.
                .unwrap_or_else(|_| "info".into()),
        )
        .init();
    let fixtures = match &args.fixtures {
        Some(path) => Fixtures::load(path)?,
        None => Fixtures::builtin(),
    };
    if args.tenant.signing_key.is_none() {
        tracing::warn!("signing tokens with the built-in development key");
    }
    let config = Config {
        tenant_domain: args.tenant.tenant.clone(),
        signing_key: args.tenant.signing_key(),
        fixtures,
        entity_limit: args.entity_limit,
        rate_limit: args.rate_limit.map(|requests| RateLimit {
            requests,
            window: Duration::from_secs(args.rate_window),
        }),
        ..Config::development(&args.tenant.tenant)
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|err| format!("cannot listen on {}: {err}", args.listen))?;
    tracing::info!(address = %args.listen, tenant = %args.tenant.tenant, "serving the tenant management API under /api/v2");
    let options = ServeOptions::default()
        .header_timeout(Duration::from_secs(args.header_timeout))
        .request_timeout(Duration::from_secs(args.request_timeout))
        .max_connections(args.max_connections);
    openapi_crates_runtime::serve_with_shutdown(
        listener,
        app(Arc::new(AppState::new(config))),
        options,
        async {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("shutting down");
        },
    )
    .await
    .map_err(|err| err.to_string())
}
