//! The frame-time plot `--plot F.svg` writes: one polyline per figure over the frame index,
//! milliseconds up, with the 16.7 ms line of 60 frames per second.

use std::fmt::Write;

use super::FrameTimes;

/// A plotted figure: its name, its colour and how to read it from a frame.
type Series = (&'static str, &'static str, fn(&FrameTimes) -> f64);

const W: f64 = 960.0;
const H: f64 = 360.0;
const MARGIN: f64 = 48.0;

/// The SVG document for `frames` of `title`.
pub fn svg(title: &str, frames: &[FrameTimes]) -> String {
    let series: [Series; 4] = [
        ("frame", "#1f77b4", |f| f.frame.as_secs_f64() * 1e3),
        ("record", "#2ca02c", |f| f.record.as_secs_f64() * 1e3),
        ("compile", "#ff7f0e", |f| f.stages.compile.as_secs_f64() * 1e3),
        ("lower", "#d62728", |f| f.stages.lower.as_secs_f64() * 1e3),
    ];
    let top = frames
        .iter()
        .flat_map(|f| series.iter().map(move |(_, _, get)| get(f)))
        .fold(1.0f64, f64::max)
        * 1.05;
    let n = frames.len().max(2) as f64 - 1.0;
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
        frames.len()
    );
    if top > 16.7 {
        let y60 = y(16.7);
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{y60:.1}" x2="{x1}" y2="{y60:.1}" stroke="#999" stroke-dasharray="4 4"/><text x="{x1}" y="{:.1}" text-anchor="end">16.7 ms</text>"##,
            y60 - 4.0
        );
    }
    for (k, (name, colour, get)) in series.iter().enumerate() {
        let points: Vec<String> = frames
            .iter()
            .enumerate()
            .map(|(i, f)| format!("{:.1},{:.1}", x(i), y(get(f))))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1" points="{}"/>"#,
            points.join(" ")
        );
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
