//! Two profiled replays side by side (`xnagraph-replay diff`): per plan node GPU time and
//! attachment traffic, A against B, and the pixels of their final frames.
//!
//! Nodes are matched as the per-node table identifies them (flush within the frame, name, and
//! which node of that name), so two captures of the same scene, two backends or two compile
//! policies line up; a node only one side has is listed with the other side empty.

use std::fmt::Write;

use super::report::{node_rows, NodeRow};
use super::run::ProfileRun;

/// One node of either replay.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDelta {
    /// The node's row in replay A, if A has it.
    pub a: Option<NodeRow>,
    /// The node's row in replay B, if B has it.
    pub b: Option<NodeRow>,
}

impl NodeDelta {
    /// The node's name (from whichever side has it).
    pub fn name(&self) -> &str {
        self.a.as_ref().or(self.b.as_ref()).map_or("", |r| r.info.name.as_str())
    }

    /// B's mean GPU time minus A's, ms, when both were timed.
    pub fn gpu_ms_delta(&self) -> Option<f64> {
        Some(timed(self.b.as_ref()?)? - timed(self.a.as_ref()?)?)
    }

    /// B's attachment bytes (loaded + stored) minus A's; a missing side counts 0.
    pub fn traffic_delta(&self) -> i64 {
        traffic(self.b.as_ref()) as i64 - traffic(self.a.as_ref()) as i64
    }
}

fn timed(row: &NodeRow) -> Option<f64> {
    (row.timed > 0).then_some(row.gpu_ms)
}

fn traffic(row: Option<&NodeRow>) -> u64 {
    row.map_or(0, |r| r.info.bytes_loaded + r.info.bytes_stored)
}

/// The nodes of both replays over the frames in `range`: A's in its order, with B's match
/// beside each, then the nodes only B has.
pub fn node_deltas(
    a: &ProfileRun,
    b: &ProfileRun,
    range: Option<(usize, usize)>,
) -> Vec<NodeDelta> {
    let key = |r: &NodeRow| (r.flush, r.info.name.clone(), r.nth);
    let mut b_rows = node_rows(b, range);
    let mut out = Vec::new();
    for row in node_rows(a, range) {
        let matched = b_rows.iter().position(|r| key(r) == key(&row)).map(|i| b_rows.remove(i));
        out.push(NodeDelta { a: Some(row), b: matched });
    }
    out.extend(b_rows.into_iter().map(|row| NodeDelta { a: None, b: Some(row) }));
    out
}

/// How two final frames differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelDiff {
    /// The largest difference of one channel of one pixel (0 to 255).
    pub max_channel_error: u8,
    /// Pixels with any channel different.
    pub differing_pixels: usize,
    /// The per-channel absolute difference, scaled so that the largest error is 255 (black
    /// where equal), opaque: RGBA8, the frames' size.
    pub image: Vec<u8>,
}

/// Compares two tightly packed RGBA8 frames of the same size.
pub fn pixel_diff(a: &[u8], b: &[u8]) -> Result<PixelDiff, String> {
    if a.len() != b.len() || !a.len().is_multiple_of(4) {
        return Err(format!(
            "the final frames differ in size ({} and {} bytes): no pixel comparison",
            a.len(),
            b.len()
        ));
    }
    let mut max = 0u8;
    let mut differing = 0;
    for (pa, pb) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        let errors = (0..4).map(|c| pa[c].abs_diff(pb[c]));
        let worst = errors.max().unwrap_or(0);
        max = max.max(worst);
        differing += usize::from(worst > 0);
    }
    let scale = if max == 0 { 0.0 } else { 255.0 / f32::from(max) };
    let image = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .flat_map(|(pa, pb)| {
            let e = |c: usize| (f32::from(pa[c].abs_diff(pb[c])) * scale).round() as u8;
            [e(0), e(1), e(2), 255]
        })
        .collect();
    Ok(PixelDiff { max_channel_error: max, differing_pixels: differing, image })
}

fn ms(row: Option<&NodeRow>) -> String {
    row.and_then(timed).map_or_else(|| "-".to_owned(), |v| format!("{v:.4}"))
}

/// The side-by-side table of `deltas` as text.
pub fn diff_table(deltas: &[NodeDelta]) -> String {
    let mut out = format!(
        "{:<28} {:<9} {:>9} {:>9} {:>9} {:>12} {:>12} {:>12}\n",
        "node", "kind", "A GPU ms", "B GPU ms", "delta", "A bytes", "B bytes", "delta"
    );
    for d in deltas {
        let kind = d.a.as_ref().or(d.b.as_ref()).map_or("", |r| r.info.kind);
        let bytes =
            |r: Option<&NodeRow>| r.map_or_else(|| "-".to_owned(), |_| traffic(r).to_string());
        let delta = d.gpu_ms_delta().map_or_else(|| "-".to_owned(), |v| format!("{v:+.4}"));
        let _ = writeln!(
            out,
            "{:<28} {:<9} {:>9} {:>9} {:>9} {:>12} {:>12} {:>+12}",
            d.name(),
            kind,
            ms(d.a.as_ref()),
            ms(d.b.as_ref()),
            delta,
            bytes(d.a.as_ref()),
            bytes(d.b.as_ref()),
            d.traffic_delta()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_differences_count_pixels_and_scale_the_image_to_the_largest_error() {
        let a = [10, 20, 30, 255, 0, 0, 0, 255, 5, 5, 5, 255];
        let b = [10, 20, 30, 255, 0, 50, 0, 255, 5, 5, 30, 200];
        let d = pixel_diff(&a, &b).unwrap();
        assert_eq!(d.max_channel_error, 55, "alpha 255 against 200");
        assert_eq!(d.differing_pixels, 2);
        assert_eq!(d.image, [0, 0, 0, 255, 0, 232, 0, 255, 0, 0, 116, 255]);
        assert!(pixel_diff(&a, &a[..8]).is_err());
        let same = pixel_diff(&a, &a).unwrap();
        assert_eq!((same.max_channel_error, same.differing_pixels), (0, 0));
        assert!(same.image.chunks(4).all(|p| p == [0, 0, 0, 255]));
    }
}
