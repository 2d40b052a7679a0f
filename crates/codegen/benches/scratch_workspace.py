"""A scratch cargo workspace around generated crates, for the bench scripts.

    python3 crates/codegen/benches/scratch_workspace.py OUT [--source DIR]
        [--consumers TAG]

OUT holds `generated/{name}/Cargo.toml` crates (as `cargo xtask codegen
--out OUT/generated --layout crates` writes them). Writes OUT/Cargo.toml: a workspace of those crates
whose `[workspace.dependencies]` are the real workspace's (the one at DIR,
default `.`) for the runtime crates they name, path dependencies made
absolute, and the generated crates by path (the types crate without its
default features, so the client and server enable only the tags theirs name).
Also writes OUT/dependencies.txt, the names of the runtime crates a build
compiles (not the optional ones).

`--consumers TAG` adds three consumer crates of the client and the server:
`every-tag` (default features), `one-tag` (TAG alone) and `no-tag`; the
last two keep the crates' other default features (the client's TLS), so
that all three compile the same dependencies.
"""

import argparse
import json
import os
import tomllib


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


def dependency(crate, options, defaults_kept):
    spec = {"path": f"../../generated/{crate}"}
    if "tags" in options:
        spec["default-features"] = False
        if options["tags"] + defaults_kept:
            spec["features"] = options["tags"] + defaults_kept
    return spec


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--source", default=".")
    parser.add_argument("--consumers", metavar="TAG")
    args = parser.parse_args()
    out, source = args.out, args.source

    root = tomllib.load(open(os.path.join(source, "Cargo.toml"), "rb"))["workspace"]["dependencies"]
    crates = sorted(
        name
        for name in os.listdir(os.path.join(out, "generated"))
        if os.path.isfile(os.path.join(out, "generated", name, "Cargo.toml"))
    )
    names = set()
    required = set()
    # A crate's default features besides `all` (the client's TLS): the
    # consumers of fewer tags keep them, so every consumer compiles the same
    # dependencies and the timed builds compile only the generated crates.
    defaults_kept = {}
    for crate in crates:
        manifest = tomllib.load(open(os.path.join(out, "generated", crate, "Cargo.toml"), "rb"))
        dependencies = manifest.get("dependencies", {})
        names.update(dependencies)
        # What a build compiles: the optional ones are off by default.
        required.update(
            name
            for name, spec in dependencies.items()
            if not (isinstance(spec, dict) and spec.get("optional"))
        )
        defaults_kept[crate] = [f for f in manifest.get("features", {}).get("default", []) if f != "all"]
        if args.consumers and args.consumers not in manifest.get("features", {}):
            raise SystemExit(f"{crate} has no feature `{args.consumers}`")
    runtime = sorted(names - set(crates))

    members = [f"generated/{crate}" for crate in crates]
    consumers = {}
    if args.consumers:
        consumers = {
            "every-tag": {},
            "one-tag": {"default-features": False, "tags": [args.consumers]},
            # Builds the dependencies, untimed.
            "no-tag": {"default-features": False, "tags": []},
        }
        members += [f"consumers/{name}" for name in consumers]
    lines = [
        "[workspace]",
        'resolver = "3"',
        f"members = {toml_value(members)}",
        "",
        "[workspace.package]",
        'edition = "2024"',
        'rust-version = "1.88"',
        'license = "Apache-2.0"',
        "publish = false",
        "",
        "[workspace.dependencies]",
    ]
    for name in runtime:
        spec = root[name]
        if isinstance(spec, dict) and "path" in spec:
            spec = dict(spec, path=os.path.abspath(os.path.join(source, spec["path"])))
        lines.append(f"{name} = {toml_value(spec)}")
    for crate in crates:
        spec = {"path": f"generated/{crate}"}
        if crate.endswith("-types"):
            spec["default-features"] = False
        lines.append(f"{crate} = {toml_value(spec)}")
    open(os.path.join(out, "Cargo.toml"), "w").write("\n".join(lines) + "\n")
    built = sorted(required - set(crates))
    open(os.path.join(out, "dependencies.txt"), "w").write("\n".join(built) + "\n")

    for consumer, options in consumers.items():
        folder = os.path.join(out, "consumers", consumer)
        os.makedirs(os.path.join(folder, "src"), exist_ok=True)
        dependencies = "\n".join(
            f"{crate} = " + toml_value(dependency(crate, options, defaults_kept[crate]))
            for crate in crates
            if not crate.endswith("-types")
        )
        open(os.path.join(folder, "Cargo.toml"), "w").write(
            f'[package]\nname = "{consumer}"\nversion = "0.1.0"\nedition.workspace = true\n'
            f"publish = false\n\n[dependencies]\n{dependencies}\n"
        )
        uses = "".join(
            f"pub use {crate.replace('-', '_')};\n" for crate in crates if not crate.endswith("-types")
        )
        open(os.path.join(folder, "src", "lib.rs"), "w").write(
            "//! A consumer of the generated crates.\n" + uses
        )


if __name__ == "__main__":
    main()
