//! A layered drawing of a plan's dependency DAG, for the HTML report to draw as SVG.
//!
//! In: node sizes and edges (from an earlier node to a later one: plan order is a topological
//! order). Out: a box per node and the canvas size, top to bottom.
//!
//! Decided here (a Sugiyama-style layout, kept small):
//! - Layers: a node sits one layer below the lowest of the nodes it depends on (longest path
//!   from a source), so every edge points down.
//! - Order within a layer: plan order first, then four sweeps (down, up, down, up) that sort
//!   each layer by the mean position of its neighbours in the layer before, which untangles
//!   most crossings of a render graph's short chains.
//! - Coordinates: layers are rows `ROW_GAP` apart; each row is centred on the widest one, its
//!   boxes `COLUMN_GAP` apart.

/// Vertical gap between two rows of boxes (room for edge labels).
pub const ROW_GAP: f64 = 48.0;
/// Horizontal gap between two boxes of a row.
pub const COLUMN_GAP: f64 = 24.0;
/// Margin around the drawing.
pub const MARGIN: f64 = 12.0;

/// Where one node's box lies.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Placed {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width (as asked).
    pub w: f64,
    /// Height (as asked).
    pub h: f64,
    /// Its row, from 0 at the top.
    pub layer: usize,
}

/// A drawing of the DAG.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// A box per node, in node order.
    pub nodes: Vec<Placed>,
    /// Canvas width.
    pub width: f64,
    /// Canvas height.
    pub height: f64,
}

/// Lays out nodes of `sizes` (width, height) joined by `edges` (from, to), every edge from a
/// lower index to a higher one; other edges are ignored.
pub fn layered(sizes: &[(f64, f64)], edges: &[(usize, usize)]) -> Layout {
    let n = sizes.len();
    let edges: Vec<(usize, usize)> =
        edges.iter().copied().filter(|&(a, b)| a < b && b < n).collect();
    // Plan order: every node's sources come before it, so their layers are final.
    let mut layer = vec![0usize; n];
    for v in 0..n {
        layer[v] =
            edges.iter().filter(|&&(_, b)| b == v).map(|&(a, _)| layer[a] + 1).max().unwrap_or(0);
    }
    let depth = layer.iter().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for v in 0..n {
        rows[layer[v]].push(v);
    }
    let mut position = vec![0.0f64; n];
    let index_rows = |rows: &Vec<Vec<usize>>, position: &mut Vec<f64>| {
        for row in rows {
            for (i, &v) in row.iter().enumerate() {
                position[v] = i as f64;
            }
        }
    };
    index_rows(&rows, &mut position);
    for sweep in 0..4 {
        let down = sweep % 2 == 0;
        let order: Vec<usize> =
            if down { (1..depth).collect() } else { (0..depth.saturating_sub(1)).rev().collect() };
        for r in order {
            let mut keyed: Vec<(f64, usize)> = rows[r]
                .iter()
                .map(|&v| {
                    let neighbours: Vec<f64> = edges
                        .iter()
                        .filter_map(|&(a, b)| match down {
                            true if b == v => Some(position[a]),
                            false if a == v => Some(position[b]),
                            _ => None,
                        })
                        .collect();
                    let key = if neighbours.is_empty() {
                        position[v]
                    } else {
                        neighbours.iter().sum::<f64>() / neighbours.len() as f64
                    };
                    (key, v)
                })
                .collect();
            keyed.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            rows[r] = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, &v) in rows[r].iter().enumerate() {
                position[v] = i as f64;
            }
        }
    }
    let row_width = |row: &Vec<usize>| {
        row.iter().map(|&v| sizes[v].0).sum::<f64>()
            + COLUMN_GAP * row.len().saturating_sub(1) as f64
    };
    let widest = rows.iter().map(row_width).fold(0.0, f64::max);
    let mut nodes = vec![Placed { x: 0.0, y: 0.0, w: 0.0, h: 0.0, layer: 0 }; n];
    let mut y = MARGIN;
    for (r, row) in rows.iter().enumerate() {
        let mut x = MARGIN + (widest - row_width(row)) / 2.0;
        let tallest = row.iter().map(|&v| sizes[v].1).fold(0.0, f64::max);
        for &v in row {
            let (w, h) = sizes[v];
            nodes[v] = Placed { x, y: y + (tallest - h) / 2.0, w, h, layer: r };
            x += w + COLUMN_GAP;
        }
        y += tallest + ROW_GAP;
    }
    let height = if n == 0 { 2.0 * MARGIN } else { y - ROW_GAP + MARGIN };
    Layout { nodes, width: widest + 2.0 * MARGIN, height }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(a: &Placed, b: &Placed) -> bool {
        a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
    }

    #[test]
    fn every_edge_points_down_and_no_boxes_overlap() {
        // A post chain: scene -> bloom -> blur x -> blur y -> composite <- scene; then present.
        let sizes = vec![(100.0, 30.0); 6];
        let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (4, 5)];
        let layout = layered(&sizes, &edges);
        for &(a, b) in &edges {
            let (a, b) = (&layout.nodes[a], &layout.nodes[b]);
            assert!(a.layer < b.layer && a.y + a.h < b.y, "{a:?} above {b:?}");
        }
        for (i, a) in layout.nodes.iter().enumerate() {
            for b in &layout.nodes[i + 1..] {
                assert!(!overlaps(a, b), "{a:?} {b:?}");
            }
            assert!(a.x >= 0.0 && a.x + a.w <= layout.width && a.y + a.h <= layout.height);
        }
        assert_eq!(layout.nodes[4].layer, 4, "composite waits for the longest chain");
    }

    #[test]
    fn independent_nodes_share_a_row() {
        let layout = layered(&[(50.0, 20.0), (70.0, 20.0), (60.0, 20.0)], &[(0, 2), (1, 2)]);
        assert_eq!(layout.nodes[0].layer, 0);
        assert_eq!(layout.nodes[1].layer, 0);
        assert_eq!(layout.nodes[0].y, layout.nodes[1].y);
        assert!(layout.nodes[0].x + 50.0 + COLUMN_GAP <= layout.nodes[1].x + 1e-9);
        // The child is centred under the widest row.
        let child = layout.nodes[2];
        assert!((child.x + child.w / 2.0 - layout.width / 2.0).abs() < 1e-9);
    }

    #[test]
    fn a_sweep_uncrosses_two_chains() {
        // Row 0: a b; row 1: c (from b) d (from a) in plan order — crossed until sorted.
        let sizes = vec![(40.0, 20.0); 4];
        let layout = layered(&sizes, &[(1, 2), (0, 3)]);
        let (a, b, c, d) = (layout.nodes[0], layout.nodes[1], layout.nodes[2], layout.nodes[3]);
        assert_eq!((a.layer, b.layer, c.layer, d.layer), (0, 0, 1, 1));
        assert_eq!(a.x < b.x, d.x < c.x, "edges a->d and b->c do not cross");
    }
}
