//! What the compiler saves: the standard post-processing frame run under the compiler's policy
//! and under the frame-blind one, on two devices, with the same pixels and far fewer attachment
//! bytes for the compiler's plan. Validation is on and fatal, and DONT_CARE content is poisoned,
//! so a plan that drops something the frame reads shows in pixels.

use xnagraph::{CompilePolicy, DeviceOptions, PlanCost};
use xnagraph_benches::post_chain::{run, PostChainRun};

fn checked_run(policy: CompilePolicy) -> PostChainRun {
    let options = DeviceOptions { validation: true, poison_undefined: true, ..Default::default() };
    let run = run(policy, options).expect("the standard frame");
    let messages = run.diagnostics.take_messages();
    assert!(messages.is_empty(), "{policy:?}: validation reported:\n{}", messages.join("\n"));
    run
}

/// The standard frame gives the same pixels under both policies, and the compiler's plan loads
/// and stores at most 60% of the attachment bytes of the frame-blind plan.
#[test]
fn the_compiler_saves_at_least_forty_percent_of_attachment_traffic_with_the_same_pixels() {
    let graph = checked_run(CompilePolicy::Graph);
    if graph.scene_samples != 4 {
        eprintln!("SKIPPED: the adapter gives {} samples for a request of 4", graph.scene_samples);
        return;
    }
    let blind = checked_run(CompilePolicy::FrameBlind);
    let traffic = |c: &PlanCost| c.bytes_loaded + c.bytes_stored;
    let figures = xnagraph_benches::json(&[
        ("test", "post_chain".into()),
        ("graph_bytes_loaded", graph.cost.bytes_loaded.into()),
        ("graph_bytes_stored", graph.cost.bytes_stored.into()),
        ("frame_blind_bytes_loaded", blind.cost.bytes_loaded.into()),
        ("frame_blind_bytes_stored", blind.cost.bytes_stored.into()),
    ]);
    println!("{figures}");
    let differing = graph.pixels.iter().zip(&blind.pixels).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "pixels differ between the policies");
    // The frame is not trivially dark: the scene and the bloom show.
    let lit = graph.pixels.iter().filter(|p| p.r > 0 || p.g > 0 || p.b > 0).count();
    assert!(lit > graph.pixels.len() / 2, "only {lit} lit pixels");
    assert!(
        traffic(&graph.cost) * 100 <= traffic(&blind.cost) * 60,
        "graph {} bytes against frame-blind {}",
        traffic(&graph.cost),
        traffic(&blind.cost)
    );
}
