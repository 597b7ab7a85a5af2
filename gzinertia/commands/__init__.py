"""What each editing command does, between reading the file and delivering the edited bytes."""
