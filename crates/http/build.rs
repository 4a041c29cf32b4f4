//! Embeds the built web app (`web/dist`, made by `npm run build`) into the binary.
//!
//! Without a build (no Node on the machine), the table is empty and `/` answers a short page
//! saying how to build the app: a plain `cargo build` still gives a working API server.
//!
//! Each text file is also embedded brotli- and gzip-compressed (at their highest levels: done
//! once per build, never per request) when that makes it smaller, and every representation gets
//! its own strong ETag. Compressing here rather than in the web build means any way of building
//! the app (`cargo xtask dev`, `npm run build` by hand) is served compressed.

use std::fmt::Write as _;
use std::hash::Hasher as _;
use std::io::Write as _;
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
    let mut table = String::from("&[\n");
    for (i, (url_path, file)) in files.into_iter().enumerate() {
        let Ok(bytes) = fs::read(&file) else {
            continue;
        };
        let _ = fs::create_dir_all(&copies);
        let copy = copies.join(i.to_string());
        if fs::write(&copy, &bytes).is_err() {
            continue;
        }
        let tag = etag(&bytes);
        let mut compressed = String::new();
        for (coding, suffix, packed) in [
            (
                "br",
                "br",
                compressible(&url_path).then(|| brotli(&bytes)).flatten(),
            ),
            (
                "gzip",
                "gz",
                compressible(&url_path).then(|| gzip(&bytes)).flatten(),
            ),
        ] {
            let Some(packed) = packed.filter(|p| p.len() < bytes.len()) else {
                continue;
            };
            let path = copies.join(format!("{i}.{suffix}"));
            if fs::write(&path, &packed).is_ok() {
                let _ = write!(
                    compressed,
                    "Encoded {{ coding: {coding:?}, etag: \"\\\"{tag}-{suffix}\\\"\", bytes: include_bytes!({:?}) }}, ",
                    path.to_string_lossy()
                );
            }
        }
        let _ = writeln!(
            table,
            "    Asset {{ path: {url_path:?}, etag: \"\\\"{tag}\\\"\", bytes: include_bytes!({:?}), encoded: &[{compressed}] }},",
            copy.to_string_lossy()
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

/// A tag of the file's bytes: 16 hex digits of a fixed-seed 64-bit hash.
fn etag(bytes: &[u8]) -> String {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(bytes);
    hasher.write_usize(bytes.len());
    format!("{:016x}", hasher.finish())
}

/// Text formats; images and fonts are compressed already.
fn compressible(url_path: &str) -> bool {
    matches!(
        url_path.rsplit_once('.').map(|(_, ext)| ext),
        Some(
            "html" | "js" | "mjs" | "css" | "svg" | "json" | "webmanifest" | "txt" | "map" | "ico"
        )
    )
}

fn brotli(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).ok()?;
    Some(out)
}

fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
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
