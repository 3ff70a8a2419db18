package cli

func runDoctor(s *Session, args []string) int { return 0 }
