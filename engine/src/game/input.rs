//! XNA's input state: `Keyboard.GetState()` and `Mouse.GetState()`, and what feeds them. XNA's
//! `GamePad` and `TouchPanel` are not offered.
//!
//! The state is kept per thread: the thread that runs a game loop (the windowed event loop,
//! or a headless run) applies [`InputEvent`]s to it before each tick, and `get_state` on that
//! thread returns a snapshot, as XNA's static `GetState` does on the game's thread. Games run
//! on other threads (parallel tests) never see each other's keys. Windowed runs turn winit's
//! window events into [`InputEvent`]s with the pure functions of [`crate::game::winit_input`];
//! headless runs receive them from a script.

use std::cell::RefCell;

use super::keys::Keys;

/// XNA's `ButtonState`: whether a mouse button is down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ButtonState {
    /// The button is up.
    #[default]
    Released,
    /// The button is down.
    Pressed,
}

/// XNA's `KeyState`: whether a key is down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyState {
    /// The key is up.
    #[default]
    Up,
    /// The key is down.
    Down,
}

/// XNA's `KeyboardState`: a snapshot of which keys are down, one bit per key code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KeyboardState {
    bits: [u32; 8],
}

impl KeyboardState {
    /// A state with exactly `keys` down (XNA's `new KeyboardState(params Keys[])`).
    pub fn new(keys: &[Keys]) -> Self {
        let mut state = KeyboardState::default();
        keys.iter().for_each(|&k| state.set(k, true));
        state
    }

    fn set(&mut self, key: Keys, down: bool) {
        let (word, bit) = (key as usize / 32, key as u32 % 32);
        if down {
            self.bits[word] |= 1 << bit;
        } else {
            self.bits[word] &= !(1 << bit);
        }
    }

    /// Whether `key` is down (XNA's `IsKeyDown`).
    pub fn is_key_down(&self, key: Keys) -> bool {
        self.bits[key as usize / 32] & (1 << (key as u32 % 32)) != 0
    }

    /// Whether `key` is up (XNA's `IsKeyUp`).
    pub fn is_key_up(&self, key: Keys) -> bool {
        !self.is_key_down(key)
    }

    /// `key`'s state (XNA's indexer `this[Keys]`).
    pub fn key_state(&self, key: Keys) -> KeyState {
        if self.is_key_down(key) {
            KeyState::Down
        } else {
            KeyState::Up
        }
    }

    /// The keys that are down, in key-code order (XNA's `GetPressedKeys`).
    pub fn get_pressed_keys(&self) -> Vec<Keys> {
        Keys::ALL.iter().copied().filter(|&k| self.is_key_down(k)).collect()
    }
}

/// XNA's `MouseState`: a snapshot of the cursor and the buttons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MouseState {
    /// Cursor x in pixels from the left of the window's client area (XNA's `X`); it keeps its
    /// last value while the cursor is outside the window.
    pub x: i32,
    /// Cursor y in pixels from the top of the client area (XNA's `Y`).
    pub y: i32,
    /// The wheel's position since the game started (XNA's `ScrollWheelValue`): +120 per notch
    /// rolled away from the user, -120 towards. A touchpad's smooth scrolling adds one unit
    /// per pixel it reports.
    pub scroll_wheel_value: i32,
    /// The left button (XNA's `LeftButton`).
    pub left_button: ButtonState,
    /// The middle button (XNA's `MiddleButton`).
    pub middle_button: ButtonState,
    /// The right button (XNA's `RightButton`).
    pub right_button: ButtonState,
    /// The first extra button, usually "back" (XNA's `XButton1`).
    pub x_button1: ButtonState,
    /// The second extra button, usually "forward" (XNA's `XButton2`).
    pub x_button2: ButtonState,
}

/// A mouse button XNA reports: one of `MouseState`'s five button fields (not an XNA type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseButton {
    /// `LeftButton`.
    Left,
    /// `MiddleButton`.
    Middle,
    /// `RightButton`.
    Right,
    /// `XButton1` (back).
    X1,
    /// `XButton2` (forward).
    X2,
}

/// One change of input state: what a window event or a headless script feeds to the thread's
/// input state (not XNA, whose platform layer does this internally).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputEvent {
    /// A key went down (a repeated press of a held key changes nothing).
    KeyDown(Keys),
    /// A key went up.
    KeyUp(Keys),
    /// The cursor moved to (x, y) in client-area pixels.
    MouseMoved {
        /// Pixels from the client area's left.
        x: i32,
        /// Pixels from the client area's top.
        y: i32,
    },
    /// A mouse button went down.
    ButtonDown(MouseButton),
    /// A mouse button went up.
    ButtonUp(MouseButton),
    /// The wheel moved by this many of XNA's units (120 per notch).
    Scrolled(i32),
    /// The window lost the focus: every key and button is released, as XNA stops seeing
    /// their releases.
    FocusLost,
}

#[derive(Default)]
struct InputState {
    keyboard: KeyboardState,
    mouse: MouseState,
}

thread_local! {
    static INPUT: RefCell<InputState> = RefCell::new(InputState::default());
}

fn button_mut(mouse: &mut MouseState, button: MouseButton) -> &mut ButtonState {
    match button {
        MouseButton::Left => &mut mouse.left_button,
        MouseButton::Middle => &mut mouse.middle_button,
        MouseButton::Right => &mut mouse.right_button,
        MouseButton::X1 => &mut mouse.x_button1,
        MouseButton::X2 => &mut mouse.x_button2,
    }
}

/// Applies `event` to this thread's input state, as the loop does before each tick (not XNA);
/// a game or test that drives its own loop feeds input through it.
pub fn apply_input(event: InputEvent) {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        match event {
            InputEvent::KeyDown(key) => input.keyboard.set(key, true),
            InputEvent::KeyUp(key) => input.keyboard.set(key, false),
            InputEvent::MouseMoved { x, y } => (input.mouse.x, input.mouse.y) = (x, y),
            InputEvent::ButtonDown(b) => *button_mut(&mut input.mouse, b) = ButtonState::Pressed,
            InputEvent::ButtonUp(b) => *button_mut(&mut input.mouse, b) = ButtonState::Released,
            InputEvent::Scrolled(units) => {
                input.mouse.scroll_wheel_value = input.mouse.scroll_wheel_value.wrapping_add(units)
            }
            InputEvent::FocusLost => {
                input.keyboard = KeyboardState::default();
                let mouse = &mut input.mouse;
                for b in [MouseButton::Left, MouseButton::Middle, MouseButton::Right] {
                    *button_mut(mouse, b) = ButtonState::Released;
                }
                mouse.x_button1 = ButtonState::Released;
                mouse.x_button2 = ButtonState::Released;
            }
        }
    });
}

/// Clears this thread's input state: every key and button up, cursor at (0, 0), wheel at 0.
/// A game run starts from it.
pub(crate) fn reset_input() {
    INPUT.with(|input| *input.borrow_mut() = InputState::default());
}

/// XNA's static `Keyboard` class: the keyboard of the thread running the game loop.
pub struct Keyboard;

impl Keyboard {
    /// XNA's `Keyboard.GetState()`: which keys are down now, on the thread running the game.
    pub fn get_state() -> KeyboardState {
        INPUT.with(|input| input.borrow().keyboard)
    }
}

/// XNA's static `Mouse` class: the mouse of the thread running the game loop. XNA's
/// `SetPosition` and `WindowHandle` are not offered.
pub struct Mouse;

impl Mouse {
    /// XNA's `Mouse.GetState()`: the cursor, the buttons and the wheel now, on the thread
    /// running the game.
    pub fn get_state() -> MouseState {
        INPUT.with(|input| input.borrow().mouse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_codes_are_xnas() {
        assert_eq!(Keys::A as u8, 65);
        assert_eq!(Keys::D0 as u8, 48);
        assert_eq!(Keys::F1 as u8, 112);
        assert_eq!(Keys::NumPad0 as u8, 96);
        assert_eq!(Keys::LeftShift as u8, 160);
        assert_eq!(Keys::OemTilde as u8, 192);
        assert_eq!(Keys::from_code(13), Some(Keys::Enter));
        assert_eq!(Keys::from_code(14), None);
        assert!(Keys::ALL.windows(2).all(|w| (w[0] as u8) < (w[1] as u8)), "sorted by code");
    }

    #[test]
    fn keyboard_state_reports_exactly_the_keys_down_in_code_order() {
        reset_input();
        for key in [Keys::Space, Keys::Z, Keys::A, Keys::RightAlt] {
            apply_input(InputEvent::KeyDown(key));
        }
        apply_input(InputEvent::KeyDown(Keys::A)); // a repeat changes nothing
        apply_input(InputEvent::KeyUp(Keys::Z));
        let state = Keyboard::get_state();
        assert_eq!(state.get_pressed_keys(), [Keys::Space, Keys::A, Keys::RightAlt]);
        assert!(state.is_key_down(Keys::A) && state.is_key_up(Keys::Z));
        assert_eq!(state.key_state(Keys::RightAlt), KeyState::Down);
        assert_eq!(state, KeyboardState::new(&[Keys::RightAlt, Keys::A, Keys::Space]));
    }

    #[test]
    fn mouse_state_tracks_position_buttons_and_accumulates_the_wheel() {
        reset_input();
        apply_input(InputEvent::MouseMoved { x: 17, y: 9 });
        apply_input(InputEvent::ButtonDown(MouseButton::Right));
        apply_input(InputEvent::ButtonDown(MouseButton::X2));
        apply_input(InputEvent::Scrolled(120));
        apply_input(InputEvent::Scrolled(240));
        apply_input(InputEvent::Scrolled(-120));
        let state = Mouse::get_state();
        assert_eq!((state.x, state.y, state.scroll_wheel_value), (17, 9, 240));
        assert_eq!(state.right_button, ButtonState::Pressed);
        assert_eq!(state.x_button2, ButtonState::Pressed);
        assert_eq!(state.left_button, ButtonState::Released);
        assert_eq!(state.x_button1, ButtonState::Released);
        apply_input(InputEvent::KeyDown(Keys::W));
        apply_input(InputEvent::FocusLost);
        assert_eq!(Keyboard::get_state().get_pressed_keys(), []);
        let state = Mouse::get_state();
        assert_eq!(state.right_button, ButtonState::Released);
        assert_eq!((state.x, state.scroll_wheel_value), (17, 240), "focus loss keeps these");
    }

    #[test]
    fn each_thread_has_its_own_input_state() {
        reset_input();
        apply_input(InputEvent::KeyDown(Keys::Q));
        let other = std::thread::spawn(|| Keyboard::get_state().get_pressed_keys()).join();
        assert_eq!(other.unwrap(), []);
        assert!(Keyboard::get_state().is_key_down(Keys::Q));
    }
}
