//! The report as text (terminals), markdown (a pull-request comment) or JSON
//! (machines). All three list the changes in the report's order.

use serde_json::{Value, json};

use crate::{Change, Level, Location, Report};

const LEVELS: [Level; 3] = [Level::Breaking, Level::PossiblyBreaking, Level::Compatible];

fn summary(report: &Report) -> String {
    let breaking = report.count(Level::Breaking);
    let unacknowledged = report.unacknowledged().count();
    format!(
        "{} change{}: {breaking} breaking ({unacknowledged} unacknowledged), {} possibly breaking, {} compatible",
        report.changes.len(),
        if report.changes.len() == 1 { "" } else { "s" },
        report.count(Level::PossiblyBreaking),
        report.count(Level::Compatible),
    )
}

fn place(location: Option<&Location>) -> String {
    match location {
        None => "-".to_string(),
        Some(Location { pointer, line }) => {
            let pointer = if pointer.is_empty() { "/" } else { pointer };
            match line {
                Some(line) => format!("{pointer} (line {line})"),
                None => pointer.to_string(),
            }
        }
    }
}

fn rust_text(change: &Change) -> Vec<String> {
    if change.rust.is_empty() {
        vec!["none".to_string()]
    } else {
        change.rust.iter().map(ToString::to_string).collect()
    }
}

/// For terminals.
pub fn text(report: &Report) -> String {
    let mut out = format!(
        "spec-diff: {} -> {}\n",
        report.base_label, report.head_label
    );
    if report.no_base {
        out.push_str("no spec at the base revision: nothing to compare\n");
        return out;
    }
    out.push_str(&summary(report));
    out.push('\n');
    for change in &report.changes {
        out.push_str(&format!(
            "\n{} [{}] {}\n  {}\n  base: {}\n  head: {}\n",
            change.level.as_str().to_uppercase(),
            change.direction.as_str(),
            change.rule,
            change.message,
            place(change.base.as_ref()),
            place(change.head.as_ref()),
        ));
        for (i, effect) in rust_text(change).iter().enumerate() {
            let label = if i == 0 { "rust:" } else { "     " };
            out.push_str(&format!("  {label} {effect}\n"));
        }
        if change.level == Level::Breaking {
            match &change.acknowledged {
                Some(reason) => out.push_str(&format!("  acknowledged: {reason}\n")),
                None => out.push_str("  NOT ACKNOWLEDGED (see `x-breaking-changes`)\n"),
            }
        }
    }
    for ack in &report.stale_acknowledgements {
        out.push_str(&format!(
            "\ninfo: acknowledgement `{}` at {} (line {}) matches no change\n",
            ack.rule,
            ack.pointer,
            ack.line.map_or("?".to_string(), |l| l.to_string())
        ));
    }
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// For pasting as a pull-request comment.
pub fn markdown(report: &Report) -> String {
    let mut out = format!(
        "### Spec change review: `{}` -> `{}`\n\n",
        report.base_label, report.head_label
    );
    if report.no_base {
        out.push_str("No spec at the base revision: nothing to compare.\n");
        return out;
    }
    let unacknowledged = report.unacknowledged().count();
    let verdict = if unacknowledged > 0 {
        ":x: unacknowledged breaking changes"
    } else {
        ":white_check_mark: no unacknowledged breaking change"
    };
    out.push_str(&format!("**{}**. {verdict}.\n", summary(report)));
    for level in LEVELS {
        let changes: Vec<&Change> = report.changes.iter().filter(|c| c.level == level).collect();
        if changes.is_empty() {
            continue;
        }
        let title = match level {
            Level::Breaking => "Breaking",
            Level::PossiblyBreaking => "Possibly breaking",
            Level::Compatible => "Compatible",
        };
        out.push_str(&format!("\n#### {title} ({})\n\n", changes.len()));
        let ack_column = level == Level::Breaking;
        out.push_str("| Rule | Direction | Change | Base | Head | Rust API effect |");
        out.push_str(if ack_column {
            " Acknowledged |\n"
        } else {
            "\n"
        });
        out.push_str("|---|---|---|---|---|---|");
        out.push_str(if ack_column { "---|\n" } else { "\n" });
        for change in changes {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |",
                change.rule,
                change.direction.as_str(),
                cell(&change.message),
                cell(&place(change.base.as_ref())),
                cell(&place(change.head.as_ref())),
                cell(&rust_text(change).join("<br>")),
            ));
            if ack_column {
                let ack = change
                    .acknowledged
                    .as_deref()
                    .map_or("**no**".to_string(), |r| format!("yes: {}", cell(r)));
                out.push_str(&format!(" {ack} |"));
            }
            out.push('\n');
        }
    }
    if !report.stale_acknowledgements.is_empty() {
        out.push_str("\n#### Acknowledgements matching no change\n\n");
        for ack in &report.stale_acknowledgements {
            out.push_str(&format!("- `{}` at `{}`\n", ack.rule, ack.pointer));
        }
    }
    out
}

fn location_json(location: Option<&Location>) -> Value {
    match location {
        None => Value::Null,
        Some(l) => json!({"pointer": l.pointer, "line": l.line}),
    }
}

/// Stable, machine-readable: field names and order do not change.
pub fn json(report: &Report) -> String {
    let changes: Vec<Value> = report
        .changes
        .iter()
        .map(|c| {
            json!({
                "rule": c.rule,
                "level": c.level.as_str(),
                "direction": c.direction.as_str(),
                "message": c.message,
                "base": location_json(c.base.as_ref()),
                "head": location_json(c.head.as_ref()),
                "rust": c.rust.iter().map(|e| json!({
                    "audience": e.audience.as_str(),
                    "breaking": e.breaking,
                    "effect": e.text,
                })).collect::<Vec<_>>(),
                "acknowledged": c.acknowledged,
            })
        })
        .collect();
    let value = json!({
        "base": report.base_label,
        "head": report.head_label,
        "compared": !report.no_base,
        "summary": {
            "breaking": report.count(Level::Breaking),
            "unacknowledged": report.unacknowledged().count(),
            "possibly_breaking": report.count(Level::PossiblyBreaking),
            "compatible": report.count(Level::Compatible),
        },
        "changes": changes,
        "stale_acknowledgements": report.stale_acknowledgements.iter().map(|a| json!({
            "rule": a.rule, "pointer": a.pointer, "line": a.line,
        })).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value always serializes");
    text.push('\n');
    text
}
