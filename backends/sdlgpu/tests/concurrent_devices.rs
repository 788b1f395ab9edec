//! Devices made and dropped on several threads at once: SDL's subsystem start-up and
//! shut-down are process-wide and not safe to run concurrently, so the backend serialises them.

use xnagraph_graph::Backend;
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};

/// Eight threads each make and drop a validated device five times, all at once: every device
/// is made, none reports a validation message, and the process survives. Without the backend's
/// turn-taking, devices failed with "SDL_HINT_GPU_DRIVER vulkan unsupported!" (every run on
/// lavapipe) or crashed the process (an NVIDIA driver).
#[test]
fn devices_made_and_dropped_on_several_threads_at_once() {
    let threads: Vec<_> = (0..8)
        .map(|_| {
            std::thread::spawn(|| {
                for _ in 0..5 {
                    let config = SdlGpuConfig { debug_mode: true, ..SdlGpuConfig::default() };
                    let backend = SdlGpuBackend::new(config).expect("an SDL_gpu device");
                    let messages = backend.diagnostics().take_messages();
                    assert!(messages.is_empty(), "{messages:?}");
                    drop(backend);
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a thread that made devices");
    }
}
