//! The XNB container, as XNA 4.0 and MonoGame write it: the header, decompression, and the
//! primitive reads every type reader uses.
//!
//! In: a file's bytes and the asset's name. Out: an [`XnbReader`] positioned at the type
//! reader list, over the content's bytes (the file's own bytes when it is not compressed, the
//! decompressed ones otherwise), or a `ContentLoad` error saying what is wrong and at which
//! byte.
//!
//! The header is 10 bytes, 14 when compressed: `"XNB"`, the target platform byte (`w` Windows,
//! `x` Xbox 360, `m` Windows Phone, and MonoGame's `d`, `a`, `i`, `X`, ...), the format
//! version (5 for XNA 4.0; MonoGame reads 4 too), a flags byte (`0x01` HiDef content, `0x80`
//! XNA's LZX compression, `0x40` MonoGame's LZ4 compression), the file's size (a little-endian
//! `u32`, header included), and when compressed the content's decompressed size. LZX content
//! is a sequence of frames of at most 32 KiB of output, each behind a 2-byte big-endian
//! compressed size, or behind `0xFF`, a 2-byte output size and a 2-byte compressed size where
//! the frame is shorter; the frames form one LZX stream with a 64 KiB window (decoded by
//! `lzxd`). LZ4 content is one raw LZ4 block (decoded by `lz4_flex`).
//!
//! Integers are little-endian; a "7-bit encoded" integer is .NET's `Write7BitEncodedInt`
//! (7 bits a byte, low first, the high bit set on every byte but the last); a string is such a
//! length then that many UTF-8 bytes; a `char` is one UTF-8 encoded character (.NET's
//! `BinaryReader.ReadChar`).

use crate::error::{Result, XnaError};

/// The header's flag of content built for the HiDef profile.
pub(crate) const FLAG_HIDEF: u8 = 0x01;
/// The header's flag of XNA's LZX compression.
pub(crate) const FLAG_LZX: u8 = 0x80;
/// The header's flag of MonoGame's LZ4 compression.
pub(crate) const FLAG_LZ4: u8 = 0x40;

/// The platform bytes XNA and MonoGame write (MonoGame's `ContentManager` list).
const PLATFORMS: &[u8] = b"wxiadXnrP5OSbVGsWMmpvgl";

/// Bytes of the header without the decompressed size.
const HEADER: usize = 10;

/// The XNA LZX window: 64 KiB.
const LZX_WINDOW: lzxd::WindowSize = lzxd::WindowSize::KB64;
/// Output bytes of a full LZX frame.
const LZX_FRAME: usize = 0x8000;

/// Where the content's bytes came from, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Lzx,
    Lz4,
}

/// What the header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub platform: u8,
    pub version: u8,
    pub hidef: bool,
    pub compression: Compression,
}

/// A `ContentLoad` error for `asset`.
pub(crate) fn load_error(asset: &str, message: impl Into<String>) -> XnaError {
    XnaError::ContentLoad { asset: asset.to_owned(), message: message.into() }
}

/// A cursor over an asset's content bytes, with the reads of .NET's `BinaryReader` that XNB
/// uses. Every failed read is a `ContentLoad` error naming the asset and the byte.
pub(crate) struct XnbReader<'a> {
    asset: &'a str,
    data: std::borrow::Cow<'a, [u8]>,
    pos: usize,
    compression: Compression,
}

impl<'a> XnbReader<'a> {
    /// Checks the header of `file` and decompresses its content; the reader starts at the
    /// content's first byte (the type reader count).
    pub fn open(asset: &'a str, file: &'a [u8]) -> Result<(Header, XnbReader<'a>)> {
        let err = |message: String| load_error(asset, message);
        if file.len() < 3 || &file[..3] != b"XNB" {
            return Err(err(format!(
                "the file is not an XNB file: bytes 0..3 are {:?}, not \"XNB\"",
                String::from_utf8_lossy(&file[..file.len().min(3)])
            )));
        }
        if file.len() < HEADER {
            return Err(err(format!(
                "the file is truncated at byte {}: the XNB header is {HEADER} bytes",
                file.len()
            )));
        }
        let platform = file[3];
        if !PLATFORMS.contains(&platform) {
            return Err(err(format!("byte 3 names an unknown target platform (0x{platform:02X})")));
        }
        let version = file[4];
        if version != 5 && version != 4 {
            return Err(err(format!(
                "byte 4 is XNB format version {version}; XNA 4.0 writes 5 (and MonoGame reads 4)"
            )));
        }
        let flags = file[5];
        let compression = match (flags & FLAG_LZX != 0, flags & FLAG_LZ4 != 0) {
            (false, false) => Compression::None,
            (true, false) => Compression::Lzx,
            (false, true) => Compression::Lz4,
            (true, true) => {
                return Err(err(format!(
                    "byte 5 (flags 0x{flags:02X}) asks for both LZX and LZ4 compression"
                )))
            }
        };
        let size = u32::from_le_bytes([file[6], file[7], file[8], file[9]]) as usize;
        if size != file.len() {
            return Err(err(format!(
                "bytes 6..10 give the file's size as {size} bytes, but it has {}",
                file.len()
            )));
        }
        let header = Header { platform, version, hidef: flags & FLAG_HIDEF != 0, compression };
        if compression == Compression::None {
            let reader =
                XnbReader { asset, data: file.into(), pos: HEADER, compression: Compression::None };
            return Ok((header, reader));
        }
        if file.len() < HEADER + 4 {
            return Err(err(format!(
                "the file is truncated at byte {}: a compressed XNB header is {} bytes",
                file.len(),
                HEADER + 4
            )));
        }
        let out_len = u32::from_le_bytes([file[10], file[11], file[12], file[13]]) as usize;
        let body = &file[HEADER + 4..];
        let kind = if compression == Compression::Lzx { "LZX" } else { "LZ4" };
        let data = match compression {
            Compression::Lzx => decompress_lzx(asset, body, out_len)?,
            _ => lz4_flex::block::decompress(body, out_len).map_err(|e| {
                err(format!(
                    "the LZ4 content from byte {} does not decompress to the {out_len} bytes \
                     bytes 10..14 give: {e}",
                    HEADER + 4
                ))
            })?,
        };
        if data.len() != out_len {
            return Err(err(format!(
                "the {kind} content from byte {} decompresses to {} bytes, but bytes 10..14 \
                 give {out_len}",
                HEADER + 4,
                data.len()
            )));
        }
        Ok((header, XnbReader { asset, data: data.into(), pos: 0, compression }))
    }

    /// The asset being read.
    pub fn asset(&self) -> &str {
        self.asset
    }

    /// The position of the next read, in the content's bytes.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether every byte of the content has been read.
    #[cfg(test)]
    pub fn at_end(&self) -> bool {
        self.pos == self.data.len()
    }

    /// "byte N", in the file or in the decompressed content.
    pub fn place(&self, at: usize) -> String {
        match self.compression {
            Compression::None => format!("byte {at}"),
            Compression::Lzx => format!("byte {at} of the LZX-decompressed content"),
            Compression::Lz4 => format!("byte {at} of the LZ4-decompressed content"),
        }
    }

    /// A `ContentLoad` error about what lies at byte `at`.
    pub fn error_at(&self, at: usize, what: impl std::fmt::Display) -> XnaError {
        load_error(self.asset, format!("{what} at {}", self.place(at)))
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&[u8]> {
        let range = self.following(n, what)?;
        self.pos = range.end;
        Ok(&self.data[range])
    }

    /// Checks that `n` more bytes are there, reading none: a reader about to create a resource
    /// of that many bytes refuses a truncated file first.
    pub fn require(&self, n: usize, what: &str) -> Result<()> {
        self.following(n, what).map(|_| ())
    }

    /// Where the next `n` bytes lie, or the error of a content that ends before them.
    fn following(&self, n: usize, what: &str) -> Result<std::ops::Range<usize>> {
        let start = self.pos;
        match start.checked_add(n).filter(|&end| end <= self.data.len()) {
            Some(end) => Ok(start..end),
            None => Err(self.error_at(
                start,
                format!(
                    "the content ends while reading {what} ({n} bytes, {} left)",
                    self.data.len() - start
                ),
            )),
        }
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let b = self.bytes(N, what)?;
        Ok(b.try_into().expect("N bytes"))
    }

    pub fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    pub fn i32(&mut self, what: &str) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    pub fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    pub fn f32(&mut self, what: &str) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }

    /// .NET's `ReadBoolean`: one byte, nonzero is true.
    pub fn bool(&mut self, what: &str) -> Result<bool> {
        Ok(self.u8(what)? != 0)
    }

    /// A count or size that must not be negative.
    pub fn count(&mut self, what: &str) -> Result<usize> {
        let at = self.pos;
        let n = self.i32(what)?;
        usize::try_from(n).map_err(|_| self.error_at(at, format!("{what} is negative ({n})")))
    }

    /// .NET's `Read7BitEncodedInt`: at most 5 bytes.
    pub fn int7(&mut self, what: &str) -> Result<u32> {
        let at = self.pos;
        let mut value = 0u32;
        for i in 0..5 {
            let b = self.u8(what)?;
            value |= u32::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error_at(at, format!("{what} is a 7-bit encoded integer longer than 5 bytes")))
    }

    /// .NET's `ReadString`: a 7-bit encoded byte length, then UTF-8.
    pub fn string(&mut self, what: &str) -> Result<String> {
        let len = self.int7(what)? as usize;
        let at = self.pos;
        let bytes = self.bytes(len, what)?.to_vec();
        String::from_utf8(bytes)
            .map_err(|e| self.error_at(at, format!("{what} is not UTF-8 ({e})")))
    }

    /// .NET's `ReadChar`: one UTF-8 encoded character.
    pub fn char(&mut self, what: &str) -> Result<char> {
        let at = self.pos;
        let first = self.u8(what)?;
        let len = match first {
            0x00..=0x7F => 1,
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 0,
        };
        let mut buf = [first, 0, 0, 0];
        if len > 1 {
            buf[1..len].copy_from_slice(self.bytes(len - 1, what)?);
        }
        std::str::from_utf8(&buf[..len.max(1)])
            .ok()
            .filter(|_| len > 0)
            .and_then(|s| s.chars().next())
            .ok_or_else(|| self.error_at(at, format!("{what} is not a UTF-8 character")))
    }
}

/// Decodes XNB's LZX frames in `body` into `out_len` bytes.
fn decompress_lzx(asset: &str, body: &[u8], out_len: usize) -> Result<Vec<u8>> {
    let mut decoder = lzxd::Lzxd::new(LZX_WINDOW);
    let mut out = Vec::with_capacity(out_len.min(64 << 20));
    let mut pos = 0usize;
    // Positions in messages are the file's: the frames start after the 14-byte header.
    let at = |p: usize| p + HEADER + 4;
    while out.len() < out_len {
        let frame_at = pos;
        let short = |need: usize| {
            load_error(
                asset,
                format!(
                    "the LZX content is truncated at byte {}: frame header needs {need} bytes",
                    at(body.len())
                ),
            )
        };
        let (frame, chunk) = match body.get(pos) {
            None => {
                return Err(load_error(
                    asset,
                    format!(
                        "the LZX content ends at byte {} after {} of its {out_len} bytes",
                        at(body.len()),
                        out.len()
                    ),
                ))
            }
            Some(0xFF) => {
                let h = body.get(pos + 1..pos + 5).ok_or_else(|| short(5))?;
                pos += 5;
                (usize::from(u16::from_be_bytes([h[0], h[1]])), u16::from_be_bytes([h[2], h[3]]))
            }
            Some(_) => {
                let h = body.get(pos..pos + 2).ok_or_else(|| short(2))?;
                pos += 2;
                (LZX_FRAME, u16::from_be_bytes([h[0], h[1]]))
            }
        };
        let chunk = usize::from(chunk);
        if frame > LZX_FRAME {
            return Err(load_error(
                asset,
                format!(
                    "the LZX frame at byte {} gives {frame} bytes of output; a frame holds at \
                     most {LZX_FRAME}",
                    at(frame_at)
                ),
            ));
        }
        if frame == 0 || chunk == 0 {
            return Err(load_error(
                asset,
                format!("the LZX frame at byte {} has a size of 0", at(frame_at)),
            ));
        }
        let data = body.get(pos..pos + chunk).ok_or_else(|| {
            load_error(
                asset,
                format!(
                    "the LZX frame at byte {} needs {chunk} bytes, but the file ends at byte {}",
                    at(frame_at),
                    at(body.len())
                ),
            )
        })?;
        let frame = frame.min(out_len - out.len());
        let decoded = decoder.decompress_next(data, frame).map_err(|e| {
            load_error(
                asset,
                format!("the LZX frame at byte {} does not decompress: {e}", at(frame_at)),
            )
        })?;
        out.extend_from_slice(decoded);
        pos += chunk;
    }
    if pos != body.len() {
        return Err(load_error(
            asset,
            format!("{} bytes follow the last LZX frame, from byte {}", body.len() - pos, at(pos)),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &[u8]) -> XnbReader<'_> {
        XnbReader { asset: "a", data: bytes.into(), pos: 0, compression: Compression::None }
    }

    #[test]
    fn seven_bit_integers_are_dot_nets() {
        let mut r = reader(&[0x05, 0x80, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
        assert_eq!(r.int7("n").unwrap(), 5);
        assert_eq!(r.int7("n").unwrap(), 128);
        assert_eq!(r.int7("n").unwrap(), u32::MAX);
        let mut long = reader(&[0x80; 6]);
        let e = long.int7("the count").unwrap_err();
        assert!(e.message().contains("longer than 5 bytes at byte 0"), "{e}");
    }

    #[test]
    fn chars_are_utf8() {
        let mut r = reader("aé€😀".as_bytes());
        let chars: Vec<char> = (0..4).map(|_| r.char("c").unwrap()).collect();
        assert_eq!(chars, ['a', 'é', '€', '😀']);
        assert!(r.at_end());
        let mut bad = reader(&[0xFF]);
        assert!(bad.char("c").is_err());
    }

    /// Random frames and blocks (an LCG's bytes behind valid XNB frame headers) are refused or
    /// decoded, never a panic: the decoders see only what the framing lets through.
    #[test]
    fn random_compressed_content_is_an_error_not_a_panic() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (state >> 33) as u8
        };
        for round in 0..400 {
            let len = 1 + usize::from(next()) * 4;
            let mut payload: Vec<u8> = (0..len).map(|_| next()).collect();
            let out_len = 1 + usize::from(next()) * 64;
            let mut body = vec![0xFF];
            body.extend_from_slice(&(out_len as u16).to_be_bytes());
            body.extend_from_slice(&(len as u16).to_be_bytes());
            body.append(&mut payload);
            for (flags, content) in [(FLAG_LZX, &body[..]), (FLAG_LZ4, &body[5..])] {
                let mut file = b"XNBw\x05".to_vec();
                file.push(flags);
                file.extend_from_slice(&((14 + content.len()) as u32).to_le_bytes());
                file.extend_from_slice(&(out_len as u32).to_le_bytes());
                file.extend_from_slice(content);
                if let Ok((_, r)) = XnbReader::open("random", &file) {
                    assert_eq!(r.data.len(), out_len, "round {round}");
                }
            }
        }
    }

    #[test]
    fn a_short_read_names_the_byte_where_the_content_ends() {
        let mut r = reader(&[1, 2, 3]);
        r.u8("x").unwrap();
        let e = r.i32("the width").unwrap_err();
        assert!(e.message().contains("reading the width (4 bytes, 2 left) at byte 1"), "{e}");
    }
}
