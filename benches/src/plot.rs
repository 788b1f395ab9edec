//! The frame-time plot the benchmarks write as SVG (`xnagraph-stress --plot`,
//! `xnagraph-replay replay --plot`): one polyline per figure over the frame index, milliseconds
//! up, with the 16.7 ms line of 60 frames per second.

use std::fmt::Write;

/// One plotted figure: its name, its colour and its value per frame in milliseconds (a
/// non-finite value, such as a frame without GPU time, leaves a gap).
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend's text.
    pub name: &'static str,
    /// An SVG colour.
    pub colour: &'static str,
    /// Milliseconds per frame.
    pub values: Vec<f64>,
}

const W: f64 = 960.0;
const H: f64 = 360.0;
const MARGIN: f64 = 48.0;

/// The SVG document plotting `series` under `title`.
pub fn svg(title: &str, series: &[Series]) -> String {
    let frames = series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    let top = series
        .iter()
        .flat_map(|s| s.values.iter().copied().filter(|v| v.is_finite()))
        .fold(1.0f64, f64::max)
        * 1.05;
    let n = frames.max(2) as f64 - 1.0;
    let x = |i: usize| MARGIN + i as f64 / n * (W - 2.0 * MARGIN);
    let y = |ms: f64| H - MARGIN - ms / top * (H - 2.0 * MARGIN);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(out, r#"<text x="{MARGIN}" y="20">{}</text>"#, escape(title));
    let (x0, x1, y0) = (MARGIN, W - MARGIN, H - MARGIN);
    let _ = writeln!(out, r#"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="black"/>"#);
    let _ = writeln!(out, r#"<line x1="{x0}" y1="{MARGIN}" x2="{x0}" y2="{y0}" stroke="black"/>"#);
    let _ = writeln!(out, r#"<text x="4" y="{}">{top:.1} ms</text>"#, MARGIN + 4.0);
    let _ = writeln!(
        out,
        r#"<text x="{x1}" y="{}" text-anchor="end">frame {}</text>"#,
        y0 + 16.0,
        frames
    );
    if top > 16.7 {
        let y60 = y(16.7);
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{y60:.1}" x2="{x1}" y2="{y60:.1}" stroke="#999" stroke-dasharray="4 4"/><text x="{x1}" y="{:.1}" text-anchor="end">16.7 ms</text>"##,
            y60 - 4.0
        );
    }
    for (k, Series { name, colour, values }) in series.iter().enumerate() {
        // A run of finite values is one polyline; a gap starts the next.
        for run in values
            .iter()
            .enumerate()
            .collect::<Vec<_>>()
            .split(|(_, v)| !v.is_finite())
            .filter(|run| !run.is_empty())
        {
            let points: Vec<String> =
                run.iter().map(|&(i, &v)| format!("{:.1},{:.1}", x(i), y(v))).collect();
            let _ = writeln!(
                out,
                r#"<polyline fill="none" stroke="{colour}" stroke-width="1" points="{}"/>"#,
                points.join(" ")
            );
        }
        let ly = 20.0 + 14.0 * k as f64;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{ly}" fill="{colour}">{name}</text>"#,
            W - MARGIN - 60.0
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
