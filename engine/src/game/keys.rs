//! XNA's `Keys`: the keyboard's keys with XNA's key codes (Windows virtual-key codes).

macro_rules! keys {
    ($($(#[doc = $doc:literal])* $name:ident = $code:literal,)*) => {
        /// XNA's `Keys`: one key of the keyboard, with XNA's numeric value (its Windows
        /// virtual-key code). Only keys a desktop keyboard reports are listed; XNA's chat-pad and
        /// IME keys are left out.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Keys {
            $($(#[doc = $doc])* $name = $code,)*
        }

        impl Keys {
            /// Every key, in key-code order.
            pub const ALL: &'static [Keys] = &[$(Keys::$name,)*];
        }
    };
}

keys! {
    /// Backspace.
    Back = 8,
    /// Tab.
    Tab = 9,
    /// Enter (either one: winit reports the keypad's Enter as `NumpadEnter`, mapped here too).
    Enter = 13,
    /// Pause.
    Pause = 19,
    /// Caps Lock.
    CapsLock = 20,
    /// Escape.
    Escape = 27,
    /// Space bar.
    Space = 32,
    /// Page Up.
    PageUp = 33,
    /// Page Down.
    PageDown = 34,
    /// End.
    End = 35,
    /// Home.
    Home = 36,
    /// Left arrow.
    Left = 37,
    /// Up arrow.
    Up = 38,
    /// Right arrow.
    Right = 39,
    /// Down arrow.
    Down = 40,
    /// Print Screen.
    PrintScreen = 44,
    /// Insert.
    Insert = 45,
    /// Delete.
    Delete = 46,
    /// Help.
    Help = 47,
    /// 0 of the main row.
    D0 = 48,
    /// 1 of the main row.
    D1 = 49,
    /// 2 of the main row.
    D2 = 50,
    /// 3 of the main row.
    D3 = 51,
    /// 4 of the main row.
    D4 = 52,
    /// 5 of the main row.
    D5 = 53,
    /// 6 of the main row.
    D6 = 54,
    /// 7 of the main row.
    D7 = 55,
    /// 8 of the main row.
    D8 = 56,
    /// 9 of the main row.
    D9 = 57,
    /// A.
    A = 65,
    /// B.
    B = 66,
    /// C.
    C = 67,
    /// D.
    D = 68,
    /// E.
    E = 69,
    /// F.
    F = 70,
    /// G.
    G = 71,
    /// H.
    H = 72,
    /// I.
    I = 73,
    /// J.
    J = 74,
    /// K.
    K = 75,
    /// L.
    L = 76,
    /// M.
    M = 77,
    /// N.
    N = 78,
    /// O.
    O = 79,
    /// P.
    P = 80,
    /// Q.
    Q = 81,
    /// R.
    R = 82,
    /// S.
    S = 83,
    /// T.
    T = 84,
    /// U.
    U = 85,
    /// V.
    V = 86,
    /// W.
    W = 87,
    /// X.
    X = 88,
    /// Y.
    Y = 89,
    /// Z.
    Z = 90,
    /// Left Windows (Super, Meta) key.
    LeftWindows = 91,
    /// Right Windows (Super, Meta) key.
    RightWindows = 92,
    /// Applications (context menu) key.
    Apps = 93,
    /// Keypad 0.
    NumPad0 = 96,
    /// Keypad 1.
    NumPad1 = 97,
    /// Keypad 2.
    NumPad2 = 98,
    /// Keypad 3.
    NumPad3 = 99,
    /// Keypad 4.
    NumPad4 = 100,
    /// Keypad 5.
    NumPad5 = 101,
    /// Keypad 6.
    NumPad6 = 102,
    /// Keypad 7.
    NumPad7 = 103,
    /// Keypad 8.
    NumPad8 = 104,
    /// Keypad 9.
    NumPad9 = 105,
    /// Keypad `*`.
    Multiply = 106,
    /// Keypad `+`.
    Add = 107,
    /// Keypad separator.
    Separator = 108,
    /// Keypad `-`.
    Subtract = 109,
    /// Keypad decimal point.
    Decimal = 110,
    /// Keypad `/`.
    Divide = 111,
    /// F1.
    F1 = 112,
    /// F2.
    F2 = 113,
    /// F3.
    F3 = 114,
    /// F4.
    F4 = 115,
    /// F5.
    F5 = 116,
    /// F6.
    F6 = 117,
    /// F7.
    F7 = 118,
    /// F8.
    F8 = 119,
    /// F9.
    F9 = 120,
    /// F10.
    F10 = 121,
    /// F11.
    F11 = 122,
    /// F12.
    F12 = 123,
    /// F13.
    F13 = 124,
    /// F14.
    F14 = 125,
    /// F15.
    F15 = 126,
    /// F16.
    F16 = 127,
    /// F17.
    F17 = 128,
    /// F18.
    F18 = 129,
    /// F19.
    F19 = 130,
    /// F20.
    F20 = 131,
    /// F21.
    F21 = 132,
    /// F22.
    F22 = 133,
    /// F23.
    F23 = 134,
    /// F24.
    F24 = 135,
    /// Num Lock.
    NumLock = 144,
    /// Scroll Lock.
    Scroll = 145,
    /// Left Shift.
    LeftShift = 160,
    /// Right Shift.
    RightShift = 161,
    /// Left Control.
    LeftControl = 162,
    /// Right Control.
    RightControl = 163,
    /// Left Alt.
    LeftAlt = 164,
    /// Right Alt (AltGr).
    RightAlt = 165,
    /// Browser Back.
    BrowserBack = 166,
    /// Browser Forward.
    BrowserForward = 167,
    /// Browser Refresh.
    BrowserRefresh = 168,
    /// Browser Stop.
    BrowserStop = 169,
    /// Browser Search.
    BrowserSearch = 170,
    /// Browser Favorites.
    BrowserFavorites = 171,
    /// Browser Home.
    BrowserHome = 172,
    /// Volume Mute.
    VolumeMute = 173,
    /// Volume Down.
    VolumeDown = 174,
    /// Volume Up.
    VolumeUp = 175,
    /// Next Track.
    MediaNextTrack = 176,
    /// Previous Track.
    MediaPreviousTrack = 177,
    /// Stop Media.
    MediaStop = 178,
    /// Play/Pause Media.
    MediaPlayPause = 179,
    /// Start Mail.
    LaunchMail = 180,
    /// Select Media.
    SelectMedia = 181,
    /// `;:` on a US layout.
    OemSemicolon = 186,
    /// `=+` on a US layout.
    OemPlus = 187,
    /// `,<` on a US layout.
    OemComma = 188,
    /// `-_` on a US layout.
    OemMinus = 189,
    /// `.>` on a US layout.
    OemPeriod = 190,
    /// `/?` on a US layout.
    OemQuestion = 191,
    /// `` `~ `` on a US layout.
    OemTilde = 192,
    /// `[{` on a US layout.
    OemOpenBrackets = 219,
    /// `\|` on a US layout.
    OemPipe = 220,
    /// `]}` on a US layout.
    OemCloseBrackets = 221,
    /// `'"` on a US layout.
    OemQuotes = 222,
    /// The extra key left of Z on an ISO keyboard (`<>` or `\|`).
    OemBackslash = 226,
}

impl Keys {
    /// The key with XNA key code `code`, if this enum has one.
    pub fn from_code(code: u8) -> Option<Keys> {
        Keys::ALL.binary_search_by_key(&code, |k| *k as u8).ok().map(|i| Keys::ALL[i])
    }
}
