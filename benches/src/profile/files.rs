//! What a replay writes beside its tables: the frame-time plot, the SVG of a plan graph's DOT
//! file, the final frame as a PNG, and the puffin server a viewer connects to.

use std::path::Path;

use xnagraph_graph::SurfaceFormat;

use super::{puffin_out, FrameFigures};
use crate::plot::{self, Series};

/// The frame-time plot of a replay.
pub fn plot_svg(title: &str, frames: &[FrameFigures]) -> String {
    let series = |name, colour, get: fn(&FrameFigures) -> f64| Series {
        name,
        colour,
        values: frames.iter().map(get).collect(),
    };
    plot::svg(
        title,
        &[
            series("frame", "#1f77b4", |f| f.frame_ms),
            series("record", "#2ca02c", |f| f.record_ms),
            series("compile", "#ff7f0e", |f| f.compile_ms),
            series("lower", "#d62728", |f| f.lower_ms),
            series("submit", "#8c564b", |f| f.submit_ms),
            series("gpu", "#9467bd", |f| f.gpu_ms.unwrap_or(f64::NAN)),
        ],
    )
}

/// Renders a DOT file as SVG beside it with the `dot` program, when it is installed; says
/// what was written.
pub fn render_dot(path: &Path) -> String {
    let svg = path.with_extension("svg");
    match std::process::Command::new("dot").arg("-Tsvg").arg(path).arg("-o").arg(&svg).status() {
        Ok(status) if status.success() => {
            format!("wrote {} and {}", path.display(), svg.display())
        }
        Ok(status) => format!("wrote {} (dot failed: {status})", path.display()),
        Err(_) => format!("wrote {} (no `dot` program: no SVG)", path.display()),
    }
}

/// Starts a puffin_http server on `addr` (a loopback address only) and waits for a viewer.
pub fn serve(addr: &str, wait_secs: u64) -> Result<puffin_http::Server, String> {
    let socket: std::net::SocketAddr = addr
        .parse()
        .map_err(|_| format!("--serve {addr}: not an address such as 127.0.0.1:8585"))?;
    if !socket.ip().is_loopback() {
        return Err(format!("--serve {addr}: only a loopback address (127.0.0.1) is served"));
    }
    let server = puffin_http::Server::new(addr).map_err(|e| format!("--serve {addr}: {e}"))?;
    eprintln!("serving puffin frames on {addr}: waiting for puffin_viewer to connect");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(wait_secs);
    while server.num_clients() == 0 && std::time::Instant::now() < deadline {
        // puffin_http accepts a connection only as a frame goes out.
        puffin_out::emit_waiting_frame();
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    if server.num_clients() == 0 {
        eprintln!("no viewer connected within {wait_secs} s; replaying anyway");
    }
    Ok(server)
}

/// Writes `rgba` (a `Color` back buffer's bytes) to `path` as a PNG.
pub fn write_png(
    path: &Path,
    width: u32,
    height: u32,
    format: SurfaceFormat,
    rgba: &[u8],
) -> Result<(), String> {
    if format != SurfaceFormat::Color {
        return Err(format!("the back buffer is {format:?}; only Color is written as PNG"));
    }
    crate::write_rgba_png(path, width, height, rgba)
}
