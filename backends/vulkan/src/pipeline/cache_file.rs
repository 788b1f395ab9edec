//! The pipeline cache kept on disk between runs ([`crate::VulkanConfig::pipeline_cache`]).
//!
//! In: the file's bytes (or none) and the device's properties. Out: the bytes of a
//! `VkPipelineCache` to create the backend's cache from, or nothing; at the backend's end, the
//! cache's data wrapped for the file.
//!
//! Decided here: a driver trusts what a pipeline cache holds, and one fed another driver's or a
//! damaged cache may misbehave, so a file is used only when everything checks:
//! - our own header: the magic `XNAGRAPH-PC`, a format version, the vendor, device and driver
//!   version of the device that wrote it, the length and the CRC-32 of the payload;
//! - the payload's Vulkan header (`VkPipelineCacheHeaderVersionOne`): version one, the same
//!   vendor and device ids, and the same `pipelineCacheUUID`.
//!
//! A file of another device or driver is refused quietly (a `debug` event): the cache starts
//! empty and the file is replaced at the end. A damaged file (short, wrong magic, wrong length
//! or checksum) is refused with a `warn` event naming the file and what is wrong; never an
//! error, never a crash. The file is written whole or not at all (to a temporary file renamed
//! over it).

use std::path::Path;

use ash::vk;

/// The file's first bytes.
const MAGIC: &[u8; 11] = b"XNAGRAPH-PC";
/// The layout of what follows the magic.
const FORMAT: u8 = 1;
/// Magic, format, vendor, device, driver version, payload length, CRC-32.
const HEADER: usize = 11 + 1 + 4 + 4 + 4 + 8 + 4;
/// `VkPipelineCacheHeaderVersionOne`'s size.
const VULKAN_HEADER: usize = 16 + 16;

/// What identifies the device a cache belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheOwner {
    pub vendor: u32,
    pub device: u32,
    pub driver_version: u32,
    pub uuid: [u8; vk::UUID_SIZE],
}

impl CacheOwner {
    pub fn of(props: &vk::PhysicalDeviceProperties) -> CacheOwner {
        CacheOwner {
            vendor: props.vendor_id,
            device: props.device_id,
            driver_version: props.driver_version,
            uuid: props.pipeline_cache_uuid,
        }
    }
}

/// Why a file's bytes are not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Written by another device or driver: expected after an upgrade, not a fault.
    OtherDevice(String),
    /// Damaged: says where.
    Damaged(String),
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The Vulkan cache data held in `file`, if it belongs to `owner` and is whole.
pub(crate) fn payload(file: &[u8], owner: &CacheOwner) -> Result<Vec<u8>, Refused> {
    let damaged = |what: String| Err(Refused::Damaged(what));
    if file.len() < HEADER {
        return damaged(format!("{} bytes, shorter than the {HEADER}-byte header", file.len()));
    }
    if &file[..MAGIC.len()] != MAGIC {
        return damaged("not an xnagraph pipeline cache (bad magic at byte 0)".into());
    }
    if file[11] != FORMAT {
        return Err(Refused::OtherDevice(format!(
            "format {} (this build reads {FORMAT})",
            file[11]
        )));
    }
    let (vendor, device, driver) = (u32_at(file, 12), u32_at(file, 16), u32_at(file, 20));
    if (vendor, device, driver) != (owner.vendor, owner.device, owner.driver_version) {
        return Err(Refused::OtherDevice(format!(
            "written by vendor {vendor:#x} device {device:#x} driver {driver:#x}"
        )));
    }
    let length = u64::from_le_bytes(file[24..32].try_into().unwrap_or_default());
    let crc = u32_at(file, 32);
    let data = &file[HEADER..];
    if length != data.len() as u64 {
        return damaged(format!("the header says {length} bytes follow it, {} do", data.len()));
    }
    if crc32fast::hash(data) != crc {
        return damaged(format!("checksum mismatch over bytes {HEADER}..{}", file.len()));
    }
    if data.len() < VULKAN_HEADER {
        return damaged(format!("the Vulkan cache header at byte {HEADER} is cut short"));
    }
    let (size, version) = (u32_at(data, 0) as usize, u32_at(data, 4));
    if size < VULKAN_HEADER || size > data.len() || version != 1 {
        return damaged(format!("bad Vulkan cache header at byte {HEADER}"));
    }
    if (u32_at(data, 8), u32_at(data, 12)) != (owner.vendor, owner.device)
        || data[16..32] != owner.uuid
    {
        return Err(Refused::OtherDevice("the Vulkan cache's UUID is another driver's".into()));
    }
    Ok(data.to_vec())
}

/// `data` (a `vkGetPipelineCacheData` result) wrapped for the file.
pub(crate) fn wrap(data: &[u8], owner: &CacheOwner) -> Vec<u8> {
    let mut file = Vec::with_capacity(HEADER + data.len());
    file.extend_from_slice(MAGIC);
    file.push(FORMAT);
    for v in [owner.vendor, owner.device, owner.driver_version] {
        file.extend_from_slice(&v.to_le_bytes());
    }
    file.extend_from_slice(&(data.len() as u64).to_le_bytes());
    file.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    file.extend_from_slice(data);
    file
}

/// The cache data of the file at `path` for `owner`, or none (a missing file, or one refused:
/// reported as the module says).
pub(crate) fn load(path: &Path, owner: &CacheOwner) -> Option<Vec<u8>> {
    let file = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            tracing::warn!(path = %path.display(), "pipeline cache not read: {e}");
            return None;
        }
    };
    match payload(&file, owner) {
        Ok(data) => Some(data),
        Err(Refused::OtherDevice(why)) => {
            tracing::debug!(path = %path.display(), "pipeline cache not used: {why}");
            None
        }
        Err(Refused::Damaged(why)) => {
            tracing::warn!(path = %path.display(), "pipeline cache ignored: {why}");
            None
        }
    }
}

/// Writes `data` for `owner` to `path`, whole or not at all; a failure is a `warn` event.
pub(crate) fn save(path: &Path, data: &[u8], owner: &CacheOwner) {
    let temporary = path.with_extension("tmp-xnagraph");
    let written = std::fs::write(&temporary, wrap(data, owner))
        .and_then(|()| std::fs::rename(&temporary, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        tracing::warn!(path = %path.display(), "pipeline cache not saved: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWNER: CacheOwner =
        CacheOwner { vendor: 0x10de, device: 0x2335, driver_version: 7, uuid: [9; 16] };

    /// A Vulkan cache blob of `owner` with `extra` bytes of pipelines.
    fn blob(owner: &CacheOwner, extra: usize) -> Vec<u8> {
        let mut b = Vec::new();
        for v in [32u32, 1, owner.vendor, owner.device] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&owner.uuid);
        b.extend((0..extra).map(|i| i as u8));
        b
    }

    #[test]
    fn a_wrapped_cache_reads_back_for_its_device() {
        let data = blob(&OWNER, 100);
        assert_eq!(payload(&wrap(&data, &OWNER), &OWNER), Ok(data));
    }

    #[test]
    fn another_device_or_driver_is_refused_quietly() {
        let file = wrap(&blob(&OWNER, 10), &OWNER);
        for other in [
            CacheOwner { vendor: 1, ..OWNER },
            CacheOwner { device: 1, ..OWNER },
            CacheOwner { driver_version: 8, ..OWNER },
        ] {
            assert!(matches!(payload(&file, &other), Err(Refused::OtherDevice(_))), "{other:?}");
        }
        // Our header matches, but the driver's cache UUID changed.
        let uuid = CacheOwner { uuid: [1; 16], ..OWNER };
        let file = wrap(&blob(&OWNER, 10), &uuid);
        assert!(matches!(payload(&file, &uuid), Err(Refused::OtherDevice(_))));
    }

    #[test]
    fn every_damage_is_refused_saying_where() {
        let file = wrap(&blob(&OWNER, 50), &OWNER);
        let damaged = |bytes: &[u8]| match payload(bytes, &OWNER) {
            Err(Refused::Damaged(why)) => why,
            other => panic!("{other:?}"),
        };
        assert!(damaged(&file[..10]).contains("shorter"));
        assert!(damaged(&file[..file.len() - 1]).contains("bytes follow"));
        let mut flipped = file.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(damaged(&flipped).contains("checksum"));
        let mut magic = file.clone();
        magic[0] = b'Y';
        assert!(damaged(&magic).contains("magic"));
        // Every truncation and every single flipped byte is refused, never accepted.
        for cut in 0..file.len() {
            assert!(payload(&file[..cut], &OWNER).is_err(), "cut at {cut}");
        }
        for at in 0..file.len() {
            let mut bad = file.clone();
            bad[at] ^= 0x40;
            assert!(payload(&bad, &OWNER).is_err(), "flip at {at}");
        }
    }

    #[test]
    fn a_save_replaces_the_file_whole_and_loads_back() {
        let dir = std::env::temp_dir().join(format!("xnagraph-pc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pipelines.bin");
        std::fs::write(&path, b"garbage").unwrap();
        assert_eq!(load(&path, &OWNER), None, "damaged: ignored");
        let data = blob(&OWNER, 64);
        save(&path, &data, &OWNER);
        assert_eq!(load(&path, &OWNER), Some(data));
        assert!(!path.with_extension("tmp-xnagraph").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
