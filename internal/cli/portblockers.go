package cli

func emitPortBlockers(s *Session, args []string) int { return 2 }
