"""The simulator's faces: the Tk window, the terminal, their launcher and screenshots."""
