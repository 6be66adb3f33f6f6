"""The lowest floor: the serial link and GTP to a board and to engines, and the host commands' plumbing (stop flag, secret files)."""
