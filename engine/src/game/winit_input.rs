//! winit's window events as XNA input: pure functions, so the mapping is tested without a
//! window.
//!
//! Keys follow XNA's virtual-key semantics: a letter is the letter the layout puts on the key
//! (XNA's `Keys.A` is the key that types "a", as a Windows virtual key is), taken from winit's
//! logical key; every other key is named by its position (winit's physical key code), so the
//! digit row, arrows, modifiers, F-keys and the keypad do not depend on the layout or on Shift.

use winit::event::{ElementState, MouseScrollDelta};
use winit::keyboard::{Key, KeyCode, PhysicalKey};

use super::input::{InputEvent, MouseButton};
use super::keys::Keys;

/// XNA's units of scroll per wheel notch.
pub const WHEEL_DELTA: i32 = 120;

/// The XNA key for a winit key event's physical and logical keys, `None` for a key XNA has no
/// name for.
pub fn xna_key(physical: PhysicalKey, logical: &Key) -> Option<Keys> {
    if let Key::Character(text) = logical {
        let mut chars = text.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if c.is_ascii_alphabetic() {
                return Keys::from_code(c.to_ascii_uppercase() as u8);
            }
        }
    }
    match physical {
        PhysicalKey::Code(code) => key_for_code(code),
        PhysicalKey::Unidentified(_) => None,
    }
}

/// The XNA key at a physical key position (a US layout's names).
pub fn key_for_code(code: KeyCode) -> Option<Keys> {
    use KeyCode as C;
    let letters = [
        C::KeyA,
        C::KeyB,
        C::KeyC,
        C::KeyD,
        C::KeyE,
        C::KeyF,
        C::KeyG,
        C::KeyH,
        C::KeyI,
        C::KeyJ,
        C::KeyK,
        C::KeyL,
        C::KeyM,
        C::KeyN,
        C::KeyO,
        C::KeyP,
        C::KeyQ,
        C::KeyR,
        C::KeyS,
        C::KeyT,
        C::KeyU,
        C::KeyV,
        C::KeyW,
        C::KeyX,
        C::KeyY,
        C::KeyZ,
    ];
    let digits = [
        C::Digit0,
        C::Digit1,
        C::Digit2,
        C::Digit3,
        C::Digit4,
        C::Digit5,
        C::Digit6,
        C::Digit7,
        C::Digit8,
        C::Digit9,
    ];
    let numpad = [
        C::Numpad0,
        C::Numpad1,
        C::Numpad2,
        C::Numpad3,
        C::Numpad4,
        C::Numpad5,
        C::Numpad6,
        C::Numpad7,
        C::Numpad8,
        C::Numpad9,
    ];
    let f_keys = [
        C::F1,
        C::F2,
        C::F3,
        C::F4,
        C::F5,
        C::F6,
        C::F7,
        C::F8,
        C::F9,
        C::F10,
        C::F11,
        C::F12,
        C::F13,
        C::F14,
        C::F15,
        C::F16,
        C::F17,
        C::F18,
        C::F19,
        C::F20,
        C::F21,
        C::F22,
        C::F23,
        C::F24,
    ];
    // Runs of consecutive XNA codes: the position in the run is the offset from its first key.
    for (run, first) in [
        (&letters[..], Keys::A),
        (&digits[..], Keys::D0),
        (&numpad[..], Keys::NumPad0),
        (&f_keys[..], Keys::F1),
    ] {
        if let Some(i) = run.iter().position(|&c| c == code) {
            return Keys::from_code(first as u8 + i as u8);
        }
    }
    let key = match code {
        C::Backspace => Keys::Back,
        C::Tab => Keys::Tab,
        C::Enter | C::NumpadEnter => Keys::Enter,
        C::Pause => Keys::Pause,
        C::CapsLock => Keys::CapsLock,
        C::Escape => Keys::Escape,
        C::Space => Keys::Space,
        C::PageUp => Keys::PageUp,
        C::PageDown => Keys::PageDown,
        C::End => Keys::End,
        C::Home => Keys::Home,
        C::ArrowLeft => Keys::Left,
        C::ArrowUp => Keys::Up,
        C::ArrowRight => Keys::Right,
        C::ArrowDown => Keys::Down,
        C::PrintScreen => Keys::PrintScreen,
        C::Insert => Keys::Insert,
        C::Delete => Keys::Delete,
        C::Help => Keys::Help,
        C::SuperLeft => Keys::LeftWindows,
        C::SuperRight => Keys::RightWindows,
        C::ContextMenu => Keys::Apps,
        C::NumpadMultiply => Keys::Multiply,
        C::NumpadAdd => Keys::Add,
        C::NumpadComma => Keys::Separator,
        C::NumpadSubtract => Keys::Subtract,
        C::NumpadDecimal => Keys::Decimal,
        C::NumpadDivide => Keys::Divide,
        C::NumLock => Keys::NumLock,
        C::ScrollLock => Keys::Scroll,
        C::ShiftLeft => Keys::LeftShift,
        C::ShiftRight => Keys::RightShift,
        C::ControlLeft => Keys::LeftControl,
        C::ControlRight => Keys::RightControl,
        C::AltLeft => Keys::LeftAlt,
        C::AltRight => Keys::RightAlt,
        C::BrowserBack => Keys::BrowserBack,
        C::BrowserForward => Keys::BrowserForward,
        C::BrowserRefresh => Keys::BrowserRefresh,
        C::BrowserStop => Keys::BrowserStop,
        C::BrowserSearch => Keys::BrowserSearch,
        C::BrowserFavorites => Keys::BrowserFavorites,
        C::BrowserHome => Keys::BrowserHome,
        C::AudioVolumeMute => Keys::VolumeMute,
        C::AudioVolumeDown => Keys::VolumeDown,
        C::AudioVolumeUp => Keys::VolumeUp,
        C::MediaTrackNext => Keys::MediaNextTrack,
        C::MediaTrackPrevious => Keys::MediaPreviousTrack,
        C::MediaStop => Keys::MediaStop,
        C::MediaPlayPause => Keys::MediaPlayPause,
        C::LaunchMail => Keys::LaunchMail,
        C::MediaSelect => Keys::SelectMedia,
        C::Semicolon => Keys::OemSemicolon,
        C::Equal => Keys::OemPlus,
        C::Comma => Keys::OemComma,
        C::Minus => Keys::OemMinus,
        C::Period => Keys::OemPeriod,
        C::Slash => Keys::OemQuestion,
        C::Backquote => Keys::OemTilde,
        C::BracketLeft => Keys::OemOpenBrackets,
        C::Backslash => Keys::OemPipe,
        C::BracketRight => Keys::OemCloseBrackets,
        C::Quote => Keys::OemQuotes,
        C::IntlBackslash => Keys::OemBackslash,
        _ => return None,
    };
    Some(key)
}

/// A key event as input: down or up, `None` for a key XNA has no name for.
pub fn key_event(physical: PhysicalKey, logical: &Key, state: ElementState) -> Option<InputEvent> {
    let key = xna_key(physical, logical)?;
    Some(match state {
        ElementState::Pressed => InputEvent::KeyDown(key),
        ElementState::Released => InputEvent::KeyUp(key),
    })
}

/// A winit mouse button as XNA's, `None` for buttons past XNA's five.
pub fn mouse_button(button: winit::event::MouseButton) -> Option<MouseButton> {
    use winit::event::MouseButton as W;
    Some(match button {
        W::Left => MouseButton::Left,
        W::Middle => MouseButton::Middle,
        W::Right => MouseButton::Right,
        W::Back => MouseButton::X1,
        W::Forward => MouseButton::X2,
        W::Other(_) => return None,
    })
}

/// A wheel movement in XNA's units: 120 per line (notch), rounded; one per pixel of smooth
/// scrolling. Positive is away from the user in both.
pub fn scroll_units(delta: MouseScrollDelta) -> i32 {
    match delta {
        MouseScrollDelta::LineDelta(_, lines) => (lines * WHEEL_DELTA as f32).round() as i32,
        MouseScrollDelta::PixelDelta(pixels) => pixels.y.round() as i32,
    }
}

#[cfg(test)]
mod tests {
    use winit::dpi::PhysicalPosition;
    use winit::keyboard::{NamedKey, NativeKeyCode};

    use super::*;

    fn ch(s: &str) -> Key {
        Key::Character(s.into())
    }

    #[test]
    fn letters_follow_the_layout_and_ignore_shift() {
        // AZERTY: the key at QWERTY's A types "a" or, shifted, "A"... or "q" at KeyA.
        assert_eq!(xna_key(PhysicalKey::Code(KeyCode::KeyA), &ch("q")), Some(Keys::Q));
        assert_eq!(xna_key(PhysicalKey::Code(KeyCode::KeyA), &ch("A")), Some(Keys::A));
        assert_eq!(xna_key(PhysicalKey::Code(KeyCode::KeyZ), &ch("z")), Some(Keys::Z));
        // A non-Latin layout: the letter is not ASCII, so the key's position names it.
        assert_eq!(xna_key(PhysicalKey::Code(KeyCode::KeyF), &ch("а")), Some(Keys::F));
    }

    #[test]
    fn other_keys_are_named_by_position() {
        let code = |c| xna_key(PhysicalKey::Code(c), &ch("!"));
        assert_eq!(code(KeyCode::Digit1), Some(Keys::D1), "shifted digit row stays a digit");
        assert_eq!(code(KeyCode::Digit0), Some(Keys::D0));
        assert_eq!(code(KeyCode::Digit9), Some(Keys::D9));
        let named = |c, n| xna_key(PhysicalKey::Code(c), &Key::Named(n));
        assert_eq!(named(KeyCode::F1, NamedKey::F1), Some(Keys::F1));
        assert_eq!(named(KeyCode::F12, NamedKey::F12), Some(Keys::F12));
        assert_eq!(named(KeyCode::F24, NamedKey::F24), Some(Keys::F24));
        assert_eq!(named(KeyCode::ArrowLeft, NamedKey::ArrowLeft), Some(Keys::Left));
        assert_eq!(named(KeyCode::ArrowDown, NamedKey::ArrowDown), Some(Keys::Down));
        assert_eq!(named(KeyCode::ShiftRight, NamedKey::Shift), Some(Keys::RightShift));
        assert_eq!(named(KeyCode::ControlLeft, NamedKey::Control), Some(Keys::LeftControl));
        assert_eq!(named(KeyCode::AltRight, NamedKey::AltGraph), Some(Keys::RightAlt));
        assert_eq!(named(KeyCode::SuperLeft, NamedKey::Super), Some(Keys::LeftWindows));
        assert_eq!(named(KeyCode::Space, NamedKey::Space), Some(Keys::Space));
        assert_eq!(named(KeyCode::Enter, NamedKey::Enter), Some(Keys::Enter));
        assert_eq!(named(KeyCode::NumpadEnter, NamedKey::Enter), Some(Keys::Enter));
        assert_eq!(named(KeyCode::Escape, NamedKey::Escape), Some(Keys::Escape));
        assert_eq!(named(KeyCode::Backspace, NamedKey::Backspace), Some(Keys::Back));
        assert_eq!(code(KeyCode::Numpad0), Some(Keys::NumPad0));
        assert_eq!(code(KeyCode::Numpad7), Some(Keys::NumPad7));
        assert_eq!(code(KeyCode::NumpadAdd), Some(Keys::Add));
        assert_eq!(code(KeyCode::NumpadDecimal), Some(Keys::Decimal));
        assert_eq!(code(KeyCode::Backquote), Some(Keys::OemTilde));
        assert_eq!(code(KeyCode::IntlBackslash), Some(Keys::OemBackslash));
        assert_eq!(code(KeyCode::Fn), None, "XNA has no Fn key");
        let unknown = PhysicalKey::Unidentified(NativeKeyCode::Xkb(999));
        assert_eq!(xna_key(unknown, &Key::Named(NamedKey::F1)), None);
    }

    #[test]
    fn every_letter_and_numpad_key_maps_to_its_own_code() {
        use KeyCode as C;
        let letters = [C::KeyA, C::KeyM, C::KeyZ].map(key_for_code);
        assert_eq!(letters, [Some(Keys::A), Some(Keys::M), Some(Keys::Z)]);
        let numpad = [C::Numpad1, C::Numpad5, C::Numpad9].map(key_for_code);
        assert_eq!(numpad, [Some(Keys::NumPad1), Some(Keys::NumPad5), Some(Keys::NumPad9)]);
    }

    #[test]
    fn key_events_are_downs_and_ups() {
        let k = PhysicalKey::Code(KeyCode::KeyW);
        assert_eq!(
            key_event(k, &ch("w"), ElementState::Pressed),
            Some(InputEvent::KeyDown(Keys::W))
        );
        assert_eq!(
            key_event(k, &ch("W"), ElementState::Released),
            Some(InputEvent::KeyUp(Keys::W))
        );
    }

    #[test]
    fn buttons_and_wheel_use_xnas_names_and_units() {
        use winit::event::MouseButton as W;
        assert_eq!(mouse_button(W::Back), Some(MouseButton::X1));
        assert_eq!(mouse_button(W::Forward), Some(MouseButton::X2));
        assert_eq!(mouse_button(W::Middle), Some(MouseButton::Middle));
        assert_eq!(mouse_button(W::Other(9)), None);
        assert_eq!(scroll_units(MouseScrollDelta::LineDelta(0.0, 1.0)), 120);
        assert_eq!(scroll_units(MouseScrollDelta::LineDelta(3.0, -2.0)), -240);
        assert_eq!(scroll_units(MouseScrollDelta::LineDelta(0.0, 0.5)), 60);
        let pixels = MouseScrollDelta::PixelDelta(PhysicalPosition::new(0.0, 37.4));
        assert_eq!(scroll_units(pixels), 37);
    }
}
