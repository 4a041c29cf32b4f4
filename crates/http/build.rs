//! Embeds the built web app (`web/dist`, made by `npm run build`) into the binary.
//!
//! Without a build (no Node on the machine), the table is empty and `/` answers a short page
//! saying how to build the app: a plain `cargo build` still gives a working API server.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let web = manifest.join("../../web");
    let dist = web.join("dist");
    // Once a build exists, only it matters; until then any change under web/ (the build
    // appearing) reruns this script.
    if dist.join("index.html").is_file() {
        println!("cargo:rerun-if-changed={}", dist.display());
    } else {
        println!("cargo:rerun-if-changed={}", web.display());
    }
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap_or_default());
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        collect(&dist, &dist, &mut files);
    }
    files.sort();
    // Embed copies taken now, so a rebuild of the app while wort compiles (a developer's second
    // terminal) cannot leave the table naming files that no longer exist.
    let copies = out_dir.join("web_dist");
    let _ = fs::remove_dir_all(&copies);
    let files: Vec<(String, String)> = files
        .into_iter()
        .enumerate()
        .filter_map(|(i, (url, file))| {
            let copy = copies.join(i.to_string());
            fs::create_dir_all(&copies).ok()?;
            fs::copy(&file, &copy).ok()?;
            Some((url, copy.to_string_lossy().into_owned()))
        })
        .collect();
    let mut table = String::from("&[\n");
    for (url_path, file) in &files {
        let _ = writeln!(
            table,
            "    Asset {{ path: {url_path:?}, bytes: include_bytes!({file:?}) }},"
        );
    }
    table.push(']');
    let out = out_dir.join("web_assets.rs");
    let code = format!(
        "/// The files of `web/dist`, by URL path.\npub static ASSETS: &[Asset] = {table};\n"
    );
    if let Err(e) = fs::write(&out, code) {
        println!("cargo:warning=cannot write {}: {e}", out.display());
    }
}

/// Every file under `dir` as (URL path, absolute file path).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let url = format!("/{}", relative.to_string_lossy().replace('\\', "/"));
            let absolute = path.canonicalize().unwrap_or(path.clone());
            files.push((url, absolute.to_string_lossy().into_owned()));
        }
    }
}
