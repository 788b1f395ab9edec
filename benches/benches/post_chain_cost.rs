//! What the compiler saves on a standard post-processing frame, run for real on the GPU under
//! both compile policies: a scene of 400 sprites into a 128×128 4x HdrBlendable target with
//! Depth24Stencil8 (DiscardContents), a four-step downsample chain (each half the size of the
//! previous, sampling it), a bloom combine into the back buffer (the scene's resolve, then the
//! last downsample added over it) and a present. Reports each plan's attachment bytes loaded
//! and stored, and whether the two back buffers are identical. The same frame is asserted by
//! the `post_chain` test of this crate (the frame itself is `xnagraph_benches::post_chain`).
//!
//! ```text
//! cargo bench -p xnagraph-benches --bench post_chain_cost
//! ```

use xnagraph::{CompilePolicy, DeviceOptions, PlanCost};
use xnagraph_benches::post_chain::run;
use xnagraph_benches::{json, number, string};

fn main() {
    let options = DeviceOptions::from_env();
    let (graph, blind) =
        match (run(CompilePolicy::Graph, options), run(CompilePolicy::FrameBlind, options)) {
            (Ok(graph), Ok(blind)) => (graph, blind),
            (Err(e), _) | (_, Err(e)) => {
                println!(
                    "{}",
                    json(&[
                        ("bench", string("post_chain_cost")),
                        ("error", string(&e.to_string()))
                    ])
                );
                return;
            }
        };
    let traffic = |c: &PlanCost| c.bytes_loaded + c.bytes_stored;
    let ratio = traffic(&graph.cost) as f64 / traffic(&blind.cost).max(1) as f64;
    println!(
        "{}",
        json(&[
            ("bench", string("post_chain_cost")),
            ("scene_samples", graph.scene_samples.into()),
            ("plan_bytes_loaded", graph.cost.bytes_loaded.into()),
            ("plan_bytes_stored", graph.cost.bytes_stored.into()),
            ("frame_blind_bytes_loaded", blind.cost.bytes_loaded.into()),
            ("frame_blind_bytes_stored", blind.cost.bytes_stored.into()),
            ("plan_to_frame_blind", number(ratio)),
            ("identical_pixels", (graph.pixels == blind.pixels).into()),
        ])
    );
}
