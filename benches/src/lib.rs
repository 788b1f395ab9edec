//! Shared pieces of xnagraph's benchmarks: timing statistics and JSON output.
//!
//! Each benchmark in `benches/benches/` is a plain binary (`harness = false`) that prints one
//! JSON object per figure on stdout, so runs can be compared by tools and by eye.

pub mod alloc_count;
pub mod ash_clear;
pub mod ash_commands;
pub mod ash_cubes;
pub mod ash_device;
pub mod ash_fill;
pub mod ash_pipeline;
pub mod ash_sprites;
pub mod cli;
pub mod coverage;
pub mod fuzz;
pub mod plot;
pub mod post_chain;
pub mod profile;
pub mod replay;
pub mod sequence;
pub mod stress;

use std::time::{Duration, Instant};

use serde::Serialize;

/// Runs `f` `iterations` times after `warmup` untimed runs; returns each run's duration.
pub fn sample(warmup: usize, iterations: usize, mut f: impl FnMut()) -> Vec<Duration> {
    for _ in 0..warmup {
        f();
    }
    (0..iterations)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect()
}

/// Median, minimum and mean of a sample, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    pub median_ns: f64,
    pub min_ns: f64,
    pub mean_ns: f64,
}

pub fn stats(samples: &[Duration]) -> Stats {
    let mut ns: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e9).collect();
    ns.sort_by(f64::total_cmp);
    let median_ns = if ns.is_empty() { 0.0 } else { ns[ns.len() / 2] };
    let min_ns = ns.first().copied().unwrap_or(0.0);
    let mean_ns = if ns.is_empty() { 0.0 } else { ns.iter().sum::<f64>() / ns.len() as f64 };
    Stats { median_ns, min_ns, mean_ns }
}

/// A JSON value: what [`json`]'s fields hold.
pub use serde_json::Value;

/// One JSON object from key/value pairs, keys in the order given, on one line as
/// `{"key": value, "next": value}`. serde_json writes every string, so a name with a quote, a
/// newline or any control character (names come from the game) stays valid JSON.
pub fn json(fields: &[(&str, Value)]) -> String {
    let mut out = Vec::new();
    let mut writer = serde_json::Serializer::with_formatter(&mut out, Spaced);
    // Writing into a Vec<u8> cannot fail, and every key is a string.
    Fields(fields).serialize(&mut writer).expect("an object of string keys serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// An object's fields, serialized in the order given (serde_json's own map sorts its keys);
/// with `#[serde(flatten)]`, fields of a derived struct whose names are data.
pub struct Fields<'a, V>(pub &'a [(&'a str, V)]);

impl<V: Serialize> Serialize for Fields<'_, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// serde_json's compact layout with a space after each `,` and `:` between an object's fields,
/// the layout the benchmark lines have always had.
struct Spaced;

impl serde_json::ser::Formatter for Spaced {
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

/// `Err` naming how many validation `messages` there are and the first, when there are any:
/// every program here fails its run on a validation message.
pub fn no_validation_messages(messages: &[String]) -> Result<(), String> {
    match messages.first() {
        Some(first) => Err(format!("{} validation messages, the first: {first}", messages.len())),
        None => Ok(()),
    }
}

/// Writes `rgba` (`width` × `height` pixels, 8 bits per channel, rows top to bottom) as a PNG.
pub fn write_rgba_png(
    path: &std::path::Path,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<(), String> {
    let bytes = rgba_png(width, height, rgba).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// `rgba` (RGBA8, row after row) encoded as a PNG file's bytes.
pub fn rgba_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgba).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// A JSON string.
pub fn string(s: &str) -> Value {
    Value::from(s)
}

/// `x` rounded to three decimals, `null` when not finite.
pub fn number(x: f64) -> Value {
    rounded(x, 3)
}

/// `x` rounded to `decimals` decimals, `null` when not finite (JSON has no NaN or infinity).
pub fn rounded(x: f64, decimals: i32) -> Value {
    let scale = 10f64.powi(decimals);
    // serde_json turns a non-finite f64 into null.
    Value::from((x * scale).round() / scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_keep_their_field_order_and_any_string_exactly() {
        let name = "a\nb\t\"c\u{1}\\";
        let line = json(&[("name", string(name)), ("frame", 3.into()), ("ms", number(1.23456))]);
        assert!(line.starts_with("{\"name\": \""), "{line}");
        assert!(line.ends_with(", \"frame\": 3, \"ms\": 1.235}"), "{line}");
        let parsed: Value = serde_json::from_str(&line).expect("valid JSON");
        assert_eq!(parsed["name"], name);
        assert_eq!(json(&[("gpu_ms", number(f64::NAN))]), "{\"gpu_ms\": null}");
    }
}
