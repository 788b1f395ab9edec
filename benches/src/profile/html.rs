//! The replay profiler's report: one self-contained HTML file (`xnagraph-replay report`).
//!
//! In: a [`ProfileRun`] whose first pass kept every plan's [`PlanDetail`], the chosen frame,
//! and what each of its passes left ([`PassImage`]s). Out: one page with no network access
//! (inline CSS, SVG and a small script; images as `data:` URIs) showing:
//! - the frame times over the replay, CPU stages stacked and GPU, with mean/p50/p95/p99;
//! - for the chosen frame, and any other first-pass frame the picker (or a click on the chart)
//!   selects: its plan nodes on a GPU timeline (a bar per node from its timestamps) and its CPU
//!   stages; the compiled graph, laid out by [`super::layout`] (each node coloured by kind and
//!   as wide as its share of the frame's GPU time, edges labelled with their hazards); the
//!   node table, sortable by any column; the plan text;
//! - for the chosen frame, a thumbnail of each attachment as each pass left it (click: full
//!   size).
//!
//! Hovering a node in the timeline, the graph, the table or the thumbnails highlights it in
//! all of them. The data is one JSON object in the page (`<script id="data">`); the script only
//! draws it, so what the page shows is what the data says.

use base64::Engine;
use serde::Serialize;

use super::inspect::PassImage;
use super::layout;
use super::observe::PlanDetail;
use super::percentile;
use super::run::{FrameFigures, ProfileRun};

/// One frame's times, for the chart.
#[derive(Serialize)]
struct FrameTimes {
    pass: u32,
    frame: usize,
    frame_ms: f64,
    record_ms: f64,
    compile_ms: f64,
    lower_ms: f64,
    submit_ms: f64,
    gpu_ms: Option<f64>,
}

/// One plan node of a detailed frame.
#[derive(Serialize)]
struct NodeData {
    id: usize,
    flush: usize,
    name: String,
    kind: &'static str,
    attachments: String,
    ops: String,
    draws: u32,
    bytes_loaded: u64,
    bytes_stored: u64,
    /// Its pass segment in its flush's commands (thumbnails are keyed by it).
    segment: Option<usize>,
    gpu_ms: Option<f64>,
    /// Begin and end on the frame's GPU timeline, from its earliest node's begin.
    begin_ms: Option<f64>,
    end_ms: Option<f64>,
    share: Option<f64>,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

#[derive(Serialize)]
struct EdgeData {
    from: usize,
    to: usize,
    label: String,
}

/// A first-pass frame with its plans.
#[derive(Serialize)]
struct FrameDetail {
    /// Index into the report's `frames`.
    at: usize,
    frame: usize,
    nodes: Vec<NodeData>,
    edges: Vec<EdgeData>,
    text: String,
    width: f64,
    height: f64,
}

#[derive(Serialize)]
struct ImageData {
    flush: usize,
    segment: usize,
    attachment: String,
    width: u32,
    height: u32,
    png: Option<String>,
    note: String,
}

#[derive(Serialize)]
struct Stat {
    name: &'static str,
    mean: f64,
    p50: f64,
    p95: f64,
    p99: f64,
}

#[derive(Serialize)]
struct ReportData {
    title: String,
    adapter: String,
    gpu_timing: String,
    stats: Vec<Stat>,
    frames: Vec<FrameTimes>,
    details: Vec<FrameDetail>,
    chosen: usize,
    images: Vec<ImageData>,
}

/// Height of a node's box in the graph.
const NODE_H: f64 = 34.0;

fn stat(name: &'static str, values: &[f64]) -> Stat {
    let mean =
        if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 };
    Stat {
        name,
        mean,
        p50: percentile(values, 50.0),
        p95: percentile(values, 95.0),
        p99: percentile(values, 99.0),
    }
}

fn stats(frames: &[FrameFigures]) -> Vec<Stat> {
    let of = |get: fn(&FrameFigures) -> f64| frames.iter().map(get).collect::<Vec<_>>();
    let mut rows = vec![
        stat("frame", &of(|f| f.frame_ms)),
        stat("record", &of(|f| f.record_ms)),
        stat("compile", &of(|f| f.compile_ms)),
        stat("lowering", &of(|f| f.lower_ms)),
        stat("submit", &of(|f| f.submit_ms)),
    ];
    let gpu: Vec<f64> = frames.iter().filter_map(|f| f.gpu_ms).collect();
    if !gpu.is_empty() {
        rows.push(stat("gpu", &gpu));
    }
    rows
}

/// The plans of `f` with their details, nodes numbered across the frame's flushes.
fn detail(run: &ProfileRun, at: usize, f: &FrameFigures) -> Option<FrameDetail> {
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let mut text = String::new();
    let mut times = Vec::new();
    for (flush, submission) in f.submissions.iter().enumerate() {
        let plan = run.plan(*submission)?;
        let detail: &PlanDetail = plan.detail.as_ref()?;
        let base = nodes.len();
        let timing = run.timings.get(submission);
        for (i, info) in plan.nodes.iter().enumerate() {
            let time = timing.and_then(|t| t.nodes.get(i));
            times.push(time.map(|t| (t.begin_ns, t.end_ns)));
            nodes.push(NodeData {
                id: base + i,
                flush,
                name: info.name.clone(),
                kind: info.kind,
                attachments: info.attachments.clone(),
                ops: info.ops.clone(),
                draws: info.draws,
                bytes_loaded: info.bytes_loaded,
                bytes_stored: info.bytes_stored,
                segment: detail.segments.get(i).copied().flatten(),
                gpu_ms: time.map(|t| t.end_ns.saturating_sub(t.begin_ns) as f64 / 1e6),
                begin_ms: None,
                end_ms: None,
                share: None,
                x: 0.0,
                y: 0.0,
                w: 0.0,
                h: 0.0,
            });
        }
        edges.extend(detail.edges.iter().map(|(a, b, label)| EdgeData {
            from: base + a,
            to: base + b,
            label: label.clone(),
        }));
        if flush > 0 {
            text.push('\n');
        }
        text.push_str(&format!("flush {flush}\n{}", detail.text));
    }
    // GPU timeline: from the frame's earliest timed begin.
    let begin = times.iter().flatten().map(|t| t.0).min();
    let span: f64 = nodes.iter().filter_map(|n| n.gpu_ms).sum();
    for (node, time) in nodes.iter_mut().zip(&times) {
        if let (Some((b, e)), Some(origin)) = (time, begin) {
            node.begin_ms = Some((b - origin) as f64 / 1e6);
            node.end_ms = Some(e.saturating_sub(origin) as f64 / 1e6);
            node.share = node.gpu_ms.map(|ms| if span > 0.0 { ms / span } else { 0.0 });
        }
    }
    // The graph: each flush laid out on its own, one under the other.
    let mut top = 0.0f64;
    let mut width = 0.0f64;
    let flushes = f.submissions.len();
    for flush in 0..flushes {
        let ids: Vec<usize> = nodes.iter().filter(|n| n.flush == flush).map(|n| n.id).collect();
        let Some(&first) = ids.first() else { continue };
        let sizes: Vec<(f64, f64)> = ids
            .iter()
            .map(|&id| {
                let n = &nodes[id];
                let label = n.name.chars().count() as f64 * 7.0 + 16.0;
                (label.max(90.0) + 220.0 * n.share.unwrap_or(0.0), NODE_H)
            })
            .collect();
        let local: Vec<(usize, usize)> = edges
            .iter()
            .filter(|e| nodes[e.from].flush == flush)
            .map(|e| (e.from - first, e.to - first))
            .collect();
        let drawn = layout::layered(&sizes, &local);
        for (k, placed) in drawn.nodes.iter().enumerate() {
            let node = &mut nodes[first + k];
            node.x = placed.x;
            node.y = placed.y + top;
            node.w = placed.w;
            node.h = placed.h;
        }
        top += drawn.height;
        width = width.max(drawn.width);
    }
    Some(FrameDetail { at, frame: f.frame, nodes, edges, text, width, height: top })
}

/// An RGBA8 image as a PNG data URI (`None` when it does not encode).
fn png_data_uri(width: u32, height: u32, rgba: &[u8]) -> Option<String> {
    let bytes = crate::rgba_png(width, height, rgba).ok()?;
    Some(format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

/// The report of `run` (a replay of the capture `title`) as one HTML page; `chosen` is the
/// frame shown first (a position in the capture) and `images` what its passes left.
pub fn report(title: &str, run: &ProfileRun, chosen: usize, images: &[PassImage]) -> String {
    let frames: Vec<FrameTimes> = run
        .frames
        .iter()
        .map(|f| FrameTimes {
            pass: f.pass,
            frame: f.frame,
            frame_ms: f.frame_ms,
            record_ms: f.record_ms,
            compile_ms: f.compile_ms,
            lower_ms: f.lower_ms,
            submit_ms: f.submit_ms,
            gpu_ms: f.gpu_ms,
        })
        .collect();
    let details = run
        .frames
        .iter()
        .enumerate()
        .filter(|(_, f)| f.pass == 0)
        .filter_map(|(at, f)| detail(run, at, f))
        .collect();
    let data = ReportData {
        title: title.to_owned(),
        adapter: run.adapter.clone(),
        gpu_timing: super::report::gpu_note(&run.support),
        stats: stats(&run.frames),
        frames,
        details,
        chosen,
        images: images
            .iter()
            .map(|i| ImageData {
                flush: i.flush,
                segment: i.segment,
                attachment: i.attachment.clone(),
                width: i.width,
                height: i.height,
                png: i.rgba.as_deref().and_then(|rgba| png_data_uri(i.width, i.height, rgba)),
                note: i.note.clone(),
            })
            .collect(),
    };
    // `</` would end the script element early: JSON allows `<\/` for it.
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "{}".into()).replace("</", "<\\/");
    TEMPLATE.replace("/*TITLE*/", &escape(title)).replace("/*DATA*/", &json)
}

/// One side of a diff page.
pub struct DiffSide<'a> {
    /// What it replayed: the capture, backend and policy.
    pub label: String,
    /// The replay.
    pub run: &'a ProfileRun,
}

/// A bar for `value` on a scale centred at zero whose ends are ±`largest`: green to the left
/// (B lower than A), red to the right (B higher).
fn delta_bar(value: Option<f64>, largest: f64, text: &str) -> String {
    const W: f64 = 160.0;
    let Some(v) = value else { return format!("<td class=\"muted\">{}</td>", escape(text)) };
    let half = W / 2.0;
    let len = if largest > 0.0 { (v.abs() / largest * half).min(half) } else { 0.0 };
    let (x, colour) = if v < 0.0 { (half - len, "#2ca02c") } else { (half, "#d62728") };
    format!(
        "<td><svg class=\"delta\" width=\"{W}\" height=\"14\" data-value=\"{v}\">\
         <line x1=\"{half}\" x2=\"{half}\" y1=\"0\" y2=\"14\" stroke=\"#999\"/>\
         <rect x=\"{x:.2}\" y=\"2\" width=\"{len:.2}\" height=\"10\" fill=\"{colour}\"/></svg> {}</td>",
        escape(text)
    )
}

/// The page of `xnagraph-replay diff --html`: the two final frames side by side with their
/// difference (per channel, scaled so the largest error is white), the summary figures, and per
/// plan node the GPU time and attachment traffic of each side with B − A as bars.
pub fn diff_page(
    a: &DiffSide<'_>,
    b: &DiffSide<'_>,
    deltas: &[super::diff::NodeDelta],
    size: (u32, u32),
) -> String {
    use std::fmt::Write;
    let (w, h) = size;
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>xnagraph diff</title>\
         <style>body {{ font: 13px/1.4 system-ui, sans-serif; margin: 16px 24px; }}\
         td, th {{ padding: 2px 8px; text-align: right; white-space: nowrap; border-bottom: 1px solid #eee; }}\
         td.l, th.l {{ text-align: left; }} .muted {{ color: #777; }} table {{ border-collapse: collapse; }}\
         figure {{ display: inline-block; margin: 0 12px 0 0; }}\
         figure img {{ image-rendering: pixelated; border: 1px solid #ccc; }}</style></head><body>\
         <h1>xnagraph diff</h1>"
    );
    let summary = |side: &DiffSide<'_>, name: &str| {
        let wall: Vec<f64> = side.run.frames.iter().map(|f| f.frame_ms).collect();
        let gpu: Vec<f64> = side.run.frames.iter().filter_map(|f| f.gpu_ms).collect();
        let gpu =
            if gpu.is_empty() { "–".into() } else { format!("{:.4} ms", percentile(&gpu, 50.0)) };
        format!(
            "<p><b>{name}</b>: {} on {}: frame p50 {:.4} ms, GPU p50 {gpu}</p>",
            escape(&side.label),
            escape(&side.run.adapter),
            percentile(&wall, 50.0)
        )
    };
    page.push_str(&summary(a, "A"));
    page.push_str(&summary(b, "B"));
    let traffic: i64 = deltas.iter().map(super::diff::NodeDelta::traffic_delta).sum();
    let pixels = super::diff::pixel_diff(&a.run.final_back_buffer, &b.run.final_back_buffer);
    match &pixels {
        Ok(d) => {
            let _ = write!(
                page,
                "<p id=\"summary\">final frame: {} differing pixels, max channel error {}; \
                 attachment traffic B − A: {traffic:+} bytes</p>",
                d.differing_pixels, d.max_channel_error
            );
        }
        Err(e) => {
            let _ = write!(
                page,
                "<p id=\"summary\">{}; attachment traffic B − A: {traffic:+} bytes</p>",
                escape(e)
            );
        }
    }
    let scale = (320.0 / f64::from(w.max(1))).clamp(1.0, 8.0);
    let (sw, sh) = ((f64::from(w) * scale).round(), (f64::from(h) * scale).round());
    let figure = |id: &str, caption: &str, rgba: &[u8]| {
        match png_data_uri(w, h, rgba) {
        Some(uri) if rgba.len() == (w * h * 4) as usize => format!(
            "<figure><img id=\"{id}\" src=\"{uri}\" width=\"{sw}\" height=\"{sh}\" alt=\"{caption}\">\
             <figcaption>{caption}</figcaption></figure>"
        ),
        _ => format!("<figure><figcaption>{caption}: no image</figcaption></figure>"),
    }
    };
    page.push_str("<h2>Final frames</h2><div>");
    page.push_str(&figure("a", "A", &a.run.final_back_buffer));
    page.push_str(&figure("b", "B", &b.run.final_back_buffer));
    if let Ok(d) = &pixels {
        page.push_str(&figure("difference", "|B − A|, scaled", &d.image));
    }
    page.push_str("</div><h2>Plan nodes</h2><table id=\"deltas\"><tr><th class=\"l\">node</th>\
                   <th class=\"l\">kind</th><th>A GPU ms</th><th>B GPU ms</th><th class=\"l\">B − A</th>\
                   <th>A bytes</th><th>B bytes</th><th class=\"l\">B − A</th></tr>");
    let largest_ms =
        deltas.iter().filter_map(|d| d.gpu_ms_delta()).fold(0.0, |m: f64, v| m.max(v.abs()));
    let largest_bytes =
        deltas.iter().map(|d| d.traffic_delta().unsigned_abs()).max().unwrap_or(0) as f64;
    for d in deltas {
        let kind = d.a.as_ref().or(d.b.as_ref()).map_or("", |r| r.info.kind);
        let ms = |r: Option<&super::report::NodeRow>| {
            r.filter(|r| r.timed > 0).map_or_else(|| "–".to_owned(), |r| format!("{:.4}", r.gpu_ms))
        };
        let bytes = |r: Option<&super::report::NodeRow>| {
            r.map_or_else(
                || "–".to_owned(),
                |r| (r.info.bytes_loaded + r.info.bytes_stored).to_string(),
            )
        };
        let gpu = d.gpu_ms_delta();
        let traffic = d.traffic_delta();
        let _ = write!(
            page,
            "<tr class=\"delta-row\"><td class=\"l\">{}</td><td class=\"l\">{kind}</td><td>{}</td><td>{}</td>{}<td>{}</td><td>{}</td>{}</tr>",
            escape(d.name()),
            ms(d.a.as_ref()),
            ms(d.b.as_ref()),
            delta_bar(gpu, largest_ms, &gpu.map_or_else(|| "–".to_owned(), |v| format!("{v:+.4}"))),
            bytes(d.a.as_ref()),
            bytes(d.b.as_ref()),
            delta_bar(Some(traffic as f64), largest_bytes, &format!("{traffic:+}")),
        );
    }
    page.push_str("</table></body></html>\n");
    page
}

/// `text` with HTML's special characters escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const TEMPLATE: &str = include_str!("report.html");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_data_cannot_close_its_script() {
        assert_eq!(escape("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
        let run = ProfileRun {
            adapter: "</script><b>".into(),
            support: xnagraph_graph::GpuTimingSupport::Unavailable(String::new()),
            frames: Vec::new(),
            plans: Vec::new(),
            timings: Default::default(),
            final_back_buffer: Vec::new(),
            dot: None,
            events: Vec::new(),
            frame_images: Vec::new(),
            query_checks: Vec::new(),
        };
        let page = report("<t>", &run, 0, &[]);
        assert_eq!(page.matches("</script>").count(), TEMPLATE.matches("</script>").count());
        assert!(page.contains("<title>xnagraph report: &lt;t&gt;</title>"));
    }
}
