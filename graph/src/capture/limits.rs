//! The limits a capture's writer and reader share, so that whatever the writer records the
//! reader accepts: a record past one of them ends the capture at the writer with an error
//! instead of a file that cannot be opened.
//!
//! In: a record's sizes. Out: `Ok` or the fault in words, which the writer returns as an I/O
//! error (ending the capture) and the reader as a [`super::CaptureError`] naming the chunk.

use super::container::MAX_CHUNK;

/// The largest buffer a capture holds, in bytes: its content travels as one blob, one chunk.
pub const MAX_BUFFER_SIZE: u64 = MAX_CHUNK as u64;

/// A buffer of `size` bytes must be 1 to [`MAX_BUFFER_SIZE`] bytes.
pub fn check_buffer_size(size: u64) -> Result<(), String> {
    if size == 0 || size > MAX_BUFFER_SIZE {
        return Err(format!("a buffer of {size} bytes (a capture holds 1 to {MAX_BUFFER_SIZE})"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_sizes_from_one_byte_to_one_chunk_are_held() {
        assert!(check_buffer_size(1).is_ok());
        assert!(check_buffer_size(MAX_BUFFER_SIZE).is_ok());
        assert!(check_buffer_size(0).is_err());
        assert!(check_buffer_size(MAX_BUFFER_SIZE + 1).is_err());
    }
}
