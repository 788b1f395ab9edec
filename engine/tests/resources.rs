//! The resource model: registry, events, explicit dispose versus drop, device disposal order.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use xnagraph::{Color, RenderTarget2D, Texture2D, XnaError};

type Log = Arc<Mutex<Vec<String>>>;

fn watch(device: &xnagraph::GraphicsDevice) -> Log {
    let log: Log = Arc::default();
    let l = log.clone();
    device
        .events()
        .resource_created
        .subscribe(move |a| l.lock().unwrap().push(format!("created {}", a.kind)));
    let l = log.clone();
    device
        .events()
        .resource_destroyed
        .subscribe(move |a| l.lock().unwrap().push(format!("destroyed {}", a.kind)));
    let l = log.clone();
    device.events().disposing.subscribe(move |_| l.lock().unwrap().push("device disposing".into()));
    log
}

fn take(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn construction_registers_and_raises_resource_created() {
    let _v = Validation::new();
    let device = device(8, 8);
    let log = watch(&device);
    let before = device.tracked_resource_count();
    let t = Texture2D::new(&device, 2, 2).unwrap();
    let rt = RenderTarget2D::new(&device, 2, 2).unwrap();
    assert_eq!(device.tracked_resource_count(), before + 2);
    assert_eq!(take(&log), ["created Texture2D", "created RenderTarget2D"]);
    drop((t, rt));
}

#[test]
fn explicit_dispose_raises_disposing_and_drop_does_not() {
    let _v = Validation::new();
    let device = device(8, 8);
    let log = watch(&device);
    let a = Texture2D::new(&device, 2, 2).unwrap();
    let b = Texture2D::new(&device, 2, 2).unwrap();
    let l = log.clone();
    a.disposing().subscribe(move |_| l.lock().unwrap().push("a disposing".into()));
    let l = log.clone();
    b.disposing().subscribe(move |_| l.lock().unwrap().push("b disposing".into()));
    take(&log);
    a.dispose();
    a.dispose(); // a second dispose is a no-op
    assert_eq!(take(&log), ["a disposing", "destroyed Texture2D"]);
    drop(b);
    assert_eq!(take(&log), ["destroyed Texture2D"]);
    assert_eq!(device.tracked_resource_count(), 0);
}

#[test]
fn copies_are_untracked_but_their_disposal_is_reported() {
    let _v = Validation::new();
    let device = device(8, 8);
    let log = watch(&device);
    let t = solid(&device, 2, 2, Color::RED);
    t.set_name("hero");
    let handler = t.disposing().subscribe(|_| panic!("handlers are not copied"));
    take(&log);
    let copy = t.clone();
    assert_eq!(device.tracked_resource_count(), 1, "a copy adds no registry entry");
    assert!(take(&log).is_empty(), "and raises no ResourceCreated");
    assert_eq!(copy.name(), "hero");
    assert_ne!(copy.resource_id(), t.resource_id());
    copy.dispose();
    assert_eq!(take(&log), ["destroyed Texture2D"], "ResourceDestroyed without a ResourceCreated");
    assert!(!t.is_disposed(), "disposing a copy leaves the original alone");
    let mut out = [Color::TRANSPARENT; 4];
    t.get_data(&mut out).unwrap();
    assert_eq!(out, [Color::RED; 4]);
    t.disposing().unsubscribe(handler);
}

#[test]
fn device_disposal_marks_raises_then_disposes_every_tracked_resource() {
    let _v = Validation::new();
    let device = device(8, 8);
    let log = watch(&device);
    let t = Texture2D::new(&device, 2, 2).unwrap();
    let rt = RenderTarget2D::new(&device, 2, 2).unwrap();
    let copy = t.clone();
    let l = log.clone();
    t.disposing().subscribe(move |_| l.lock().unwrap().push("texture disposing".into()));
    device.set_render_target(Some(&rt)).unwrap();
    take(&log);
    device.dispose();
    assert!(device.is_disposed());
    assert_eq!(
        take(&log),
        [
            "device disposing",
            "texture disposing",
            "destroyed Texture2D",
            "destroyed RenderTarget2D"
        ]
    );
    assert!(t.is_disposed() && rt.is_disposed());
    assert!(!copy.is_disposed(), "the device never disposes an untracked copy");
    assert!(matches!(t.set_data(&[Color::RED; 4]), Err(XnaError::ObjectDisposed { .. })));
    assert!(matches!(device.clear(Color::RED), Err(XnaError::ObjectDisposed { .. })));
    assert!(matches!(Texture2D::new(&device, 2, 2), Err(XnaError::ObjectDisposed { .. })));
    // Resources outliving the device drop quietly.
    drop((t, rt, copy));
}

#[test]
fn resources_may_outlive_their_device() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = solid(&device, 2, 2, Color::RED);
    let copy = t.clone();
    drop(device);
    assert!(t.is_disposed(), "device drop disposes tracked resources");
    let mut out = [Color::TRANSPARENT; 4];
    assert!(matches!(copy.get_data(&mut out), Err(XnaError::ObjectDisposed { .. })));
    copy.dispose();
}

#[test]
fn a_disposing_handler_may_dispose_other_resources() {
    let _v = Validation::new();
    let device = device(8, 8);
    let a = Texture2D::new(&device, 2, 2).unwrap();
    let b = Arc::new(Texture2D::new(&device, 2, 2).unwrap());
    let b2 = b.clone();
    a.disposing().subscribe(move |_| b2.dispose());
    a.dispose();
    assert!(b.is_disposed());
    assert_eq!(device.tracked_resource_count(), 0);
}

#[test]
fn a_copy_of_a_disposed_texture_is_disposed() {
    let _v = Validation::new();
    let device = device(8, 8);
    let log = watch(&device);
    let t = solid(&device, 2, 2, Color::RED);
    t.dispose();
    take(&log);
    let copy = t.clone();
    assert!(copy.is_disposed(), "the copy reports what every call on it answers");
    assert_eq!(
        copy.set_data(&[Color::RED; 4]).unwrap_err(),
        XnaError::ObjectDisposed { object: "Texture2D" }
    );
    copy.dispose();
    drop(copy);
    assert!(take(&log).is_empty(), "a copy born disposed raises nothing when it ends");
    // The same for a texture the device disposed.
    let kept = solid(&device, 2, 2, Color::RED);
    let alive_copy = kept.clone();
    device.dispose();
    assert!(kept.clone().is_disposed());
    assert!(!alive_copy.is_disposed(), "an untracked copy made before is left to its owner");
}
