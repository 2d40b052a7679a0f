//! Drives both servers with `wrk` and measures them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::Server;
use crate::work::TOKEN;

#[derive(clap::Args)]
pub struct Settings {
    /// Interleaved rounds; medians are taken over them.
    #[arg(long, default_value_t = 9)]
    rounds: usize,
    /// Seconds of load per kind, server and round.
    #[arg(long, default_value_t = 3)]
    seconds: u32,
    /// Concurrent connections.
    #[arg(long, default_value_t = 64)]
    connections: u32,
}

/// A kind of request the benchmark sends.
pub struct Kind {
    pub name: &'static str,
    pub path: &'static str,
    pub method: &'static str,
    pub content_type: Option<&'static str>,
    pub body: Option<&'static str>,
    pub expected_status: u16,
}

impl Kind {
    /// The name on the command line: `get`, `post-json`, ...
    pub fn slug(&self) -> String {
        self.name.to_ascii_lowercase().replace(' ', "-")
    }
}

pub const KINDS: &[Kind] = &[
    Kind {
        name: "GET",
        path: "/api/v2/actions/modules/mod_bench",
        method: "GET",
        content_type: None,
        body: None,
        expected_status: 200,
    },
    Kind {
        name: "POST JSON",
        path: "/api/v2/token-exchange-profiles",
        method: "POST",
        content_type: Some("application/json"),
        body: Some(
            r#"{"name":"Partner tokens","subject_token_type":"urn:partner:token","action_id":"act_token_exchange","type":"custom_authentication"}"#,
        ),
        expected_status: 201,
    },
    Kind {
        name: "POST form",
        path: "/api/v2/token-exchange-profiles",
        method: "POST",
        content_type: Some("application/x-www-form-urlencoded"),
        body: Some(
            "name=Partner+tokens&subject_token_type=urn%3Apartner%3Atoken&action_id=act_token_exchange&type=custom_authentication",
        ),
        expected_status: 201,
    },
    Kind {
        name: "POST rejected",
        path: "/api/v2/token-exchange-profiles",
        method: "POST",
        content_type: Some("application/json"),
        body: Some(
            r#"{"name":"ab","subject_token_type":"urn:partner:token","action_id":"act_token_exchange","type":"other"}"#,
        ),
        expected_status: 400,
    },
];

/// One load of one kind against one server.
#[derive(Debug, Clone, Copy)]
struct Sample {
    cpu_ns_per_request: f64,
    requests_per_second: f64,
    p99_ms: f64,
}

struct Running {
    child: Child,
    address: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(server: Server) -> Result<Running, String> {
    let executable = std::env::current_exe().map_err(|err| err.to_string())?;
    let name = match server {
        Server::Generated => "generated",
        Server::Baseline => "baseline",
    };
    let mut child = Command::new(executable)
        .args(["serve", name])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|err| format!("cannot start the {name} server: {err}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|err| err.to_string())?;
    Ok(Running {
        child,
        address: line.trim().to_string(),
    })
}

/// CPU time of every thread of `pid`, in nanoseconds (`/proc/PID/task/*/schedstat`).
fn cpu_ns(pid: u32) -> Result<u64, String> {
    let mut total = 0;
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map_err(|err| err.to_string())?;
    for task in tasks {
        let path = task
            .map_err(|err| err.to_string())?
            .path()
            .join("schedstat");
        let text = std::fs::read_to_string(path).map_err(|err| err.to_string())?;
        total += text
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .ok_or("unreadable schedstat")?;
    }
    Ok(total)
}

/// Checks one request by hand, so a benchmark of wrong answers is caught.
fn check_answer(address: &str, kind: &Kind) -> Result<(), String> {
    let mut command = Command::new("curl");
    command.args([
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        "-X",
        kind.method,
    ]);
    command.args(["-H", &format!("Authorization: Bearer {TOKEN}")]);
    if let (Some(content_type), Some(body)) = (kind.content_type, kind.body) {
        command.args([
            "-H",
            &format!("Content-Type: {content_type}"),
            "--data-binary",
            body,
        ]);
    }
    let output = command
        .arg(format!("http://{address}{}", kind.path))
        .output()
        .map_err(|err| format!("cannot run curl: {err}"))?;
    let status = String::from_utf8_lossy(&output.stdout);
    if status.trim() != kind.expected_status.to_string() {
        return Err(format!(
            "{} answered {status} to {}, expected {}",
            address, kind.name, kind.expected_status
        ));
    }
    Ok(())
}

fn wrk_script(kind: &Kind) -> String {
    let mut script = format!("wrk.method = \"{}\"\n", kind.method);
    script.push_str(&format!(
        "wrk.headers[\"Authorization\"] = \"Bearer {TOKEN}\"\n"
    ));
    if let (Some(content_type), Some(body)) = (kind.content_type, kind.body) {
        script.push_str(&format!(
            "wrk.headers[\"Content-Type\"] = \"{content_type}\"\n"
        ));
        script.push_str(&format!("wrk.body = [[{body}]]\n"));
    }
    script
}

fn load(running: &Running, kind: &Kind, settings: &Settings) -> Result<Sample, String> {
    let script = std::env::temp_dir().join(format!("tenant-bench-{}.lua", std::process::id()));
    std::fs::write(&script, wrk_script(kind)).map_err(|err| err.to_string())?;
    let before = cpu_ns(running.child.id())?;
    let output = Command::new("wrk")
        .args(["-t1", &format!("-c{}", settings.connections)])
        .args([&format!("-d{}s", settings.seconds), "--latency", "-s"])
        .arg(&script)
        .arg(format!("http://{}{}", running.address, kind.path))
        .output()
        .map_err(|err| format!("cannot run wrk (install it: bench.sh does): {err}"))?;
    let after = cpu_ns(running.child.id())?;
    let report = String::from_utf8_lossy(&output.stdout);
    let requests = report
        .lines()
        .find(|line| line.contains(" requests in "))
        .and_then(|line| line.split_whitespace().next())
        .and_then(|count| count.parse::<f64>().ok())
        .ok_or_else(|| format!("unexpected wrk output:\n{report}"))?;
    let requests_per_second = field(&report, "Requests/sec:")?;
    let p99 = report
        .lines()
        .find(|line| line.trim_start().starts_with("99%"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(milliseconds)
        .ok_or_else(|| format!("no p99 in wrk output:\n{report}"))?;
    Ok(Sample {
        cpu_ns_per_request: (after - before) as f64 / requests,
        requests_per_second,
        p99_ms: p99,
    })
}

fn field(report: &str, label: &str) -> Result<f64, String> {
    report
        .lines()
        .find_map(|line| line.trim().strip_prefix(label))
        .and_then(|value| value.trim().parse().ok())
        .ok_or_else(|| format!("no `{label}` in wrk output:\n{report}"))
}

/// wrk's `1.23ms`, `456.00us` or `1.02s` in milliseconds.
fn milliseconds(text: &str) -> Option<f64> {
    if let Some(value) = text.strip_suffix("us") {
        value.parse::<f64>().ok().map(|us| us / 1000.0)
    } else if let Some(value) = text.strip_suffix("ms") {
        value.parse().ok()
    } else {
        text.strip_suffix('s')?
            .parse::<f64>()
            .ok()
            .map(|s| s * 1000.0)
    }
}

/// One measure of both servers over the rounds.
struct Comparison {
    generated: f64,
    baseline: f64,
    /// The median of the rounds' generated/baseline ratios. The two servers
    /// of a round ran seconds apart, so the machine's load of the moment
    /// weighs on both; a ratio of the two medians would mix rounds run under
    /// different loads.
    ratio: f64,
}

fn compare(generated: &[Sample], baseline: &[Sample], pick: fn(&Sample) -> f64) -> Comparison {
    let mut ratios: Vec<f64> = generated
        .iter()
        .zip(baseline)
        .map(|(generated, baseline)| pick(generated) / pick(baseline))
        .collect();
    Comparison {
        generated: median(&mut generated.iter().map(pick).collect::<Vec<_>>()),
        baseline: median(&mut baseline.iter().map(pick).collect::<Vec<_>>()),
        ratio: median(&mut ratios),
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".into())
}

pub fn run(settings: &Settings) -> Result<(), String> {
    println!(
        "load average before: {} ({} cores); {} rounds x {} s, {} connections, one server worker",
        loadavg(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        settings.rounds,
        settings.seconds,
        settings.connections
    );
    let mut samples: BTreeMap<(usize, &str), Vec<Sample>> = BTreeMap::new();
    for round in 0..settings.rounds {
        // Fresh server processes every round. Where the scheduler keeps a
        // server's worker relative to wrk on a small machine tends to hold
        // for the process's life and tilts all of its samples one way;
        // restarting spreads that over the rounds like any other noise.
        let generated = start(Server::Generated)?;
        let baseline = start(Server::Baseline)?;
        for kind in KINDS {
            check_answer(&generated.address, kind)?;
            check_answer(&baseline.address, kind)?;
        }
        for (index, kind) in KINDS.iter().enumerate() {
            // Alternate which server goes first, so drift over the run
            // (thermal, other load) falls on both alike.
            let order = if round % 2 == 0 {
                [("generated", &generated), ("baseline", &baseline)]
            } else {
                [("baseline", &baseline), ("generated", &generated)]
            };
            for (name, running) in order {
                let sample = load(running, kind, settings)?;
                samples.entry((index, name)).or_default().push(sample);
            }
        }
        eprintln!("round {}/{} done", round + 1, settings.rounds);
    }
    println!("load average after: {}", loadavg());
    println!(
        "\n{:<14} {:>12} {:>12} {:>7} {:>11} {:>11} {:>7} {:>9} {:>9} {:>7}",
        "kind",
        "CPU/req gen",
        "CPU/req base",
        "ratio",
        "req/s gen",
        "req/s base",
        "ratio",
        "p99 gen",
        "p99 base",
        "ratio"
    );
    for (index, kind) in KINDS.iter().enumerate() {
        let (generated, baseline) = (
            &samples[&(index, "generated")],
            &samples[&(index, "baseline")],
        );
        let cpu = compare(generated, baseline, |s| s.cpu_ns_per_request / 1000.0);
        let rps = compare(generated, baseline, |s| s.requests_per_second);
        let p99 = compare(generated, baseline, |s| s.p99_ms);
        println!(
            "{:<14} {:>10.1}us {:>10.1}us {:>6.2}x {:>11.0} {:>11.0} {:>6.2}x {:>7.2}ms {:>7.2}ms {:>6.2}x",
            kind.name,
            cpu.generated,
            cpu.baseline,
            cpu.ratio,
            rps.generated,
            rps.baseline,
            rps.ratio,
            p99.generated,
            p99.baseline,
            p99.ratio
        );
    }
    println!(
        "\nvalues: medians over the rounds; ratios: medians of each round's generated/hand-written"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrk_durations_in_milliseconds() {
        assert_eq!(milliseconds("1.50ms"), Some(1.5));
        assert_eq!(milliseconds("250.00us"), Some(0.25));
        assert_eq!(milliseconds("1.20s"), Some(1200.0));
        assert_eq!(milliseconds("abc"), None);
    }

    #[test]
    fn medians_take_the_middle_value() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
    }

    #[test]
    fn ratios_pair_the_servers_round_by_round() {
        let sample = |cpu_ns_per_request| Sample {
            cpu_ns_per_request,
            requests_per_second: 1.0,
            p99_ms: 1.0,
        };
        // Round 2 ran under load: both servers slowed down alike.
        let generated = [sample(9.0), sample(18.0), sample(10.0)];
        let baseline = [sample(10.0), sample(20.0), sample(8.0)];
        let cpu = compare(&generated, &baseline, |s| s.cpu_ns_per_request);
        assert_eq!((cpu.generated, cpu.baseline), (10.0, 10.0));
        assert_eq!(cpu.ratio, 0.9);
    }

    #[test]
    fn post_scripts_carry_the_body_and_headers() {
        let script = wrk_script(&KINDS[1]);
        assert!(script.contains("wrk.method = \"POST\""));
        assert!(script.contains("application/json"));
        assert!(script.contains("Bearer bench-token"));
    }
}
