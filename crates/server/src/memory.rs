//! Memory that comes back after a burst of password hashing.
//!
//! Every argon2id hash allocates one 19 MiB block and frees it tens of milliseconds later. glibc's
//! allocator starts by mapping such a large block directly (and unmapping it on free), but raises
//! its "map directly" threshold to the size of every mapped block freed, up to 32 MiB: after the
//! first hash, the blocks come from the heap arenas instead, which fragment and are not given
//! back. Measured with `cargo xtask flood` (docs/benchmarks.md, "A flood of password work"): a
//! burst of sign-ups left the process at its peak resident memory for good; with the threshold
//! pinned at 1 MiB the peak is a small fraction of that and the memory comes back. The threshold
//! is pinned once, at start.

/// Allocations of at least this size are always mapped directly and unmapped on free.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD_BYTES: libc::c_int = 1024 * 1024;

/// Pins glibc's mmap threshold (no-op with other C libraries, whose allocators do not have the
/// dynamic threshold). Call first thing in `main`, before any thread exists.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn give_large_blocks_back() {
    // SAFETY: `mallopt` only sets a parameter of the C allocator; it is called once, before
    // other threads run, with a documented parameter and a value in range.
    let _ = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) };
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_large_blocks_back() {}
