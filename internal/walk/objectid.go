package walk

// ObjectID reports whether s is spelled as a full git object id: 40 (SHA-1)
// or 64 (SHA-256) lowercase hexadecimal digits.
func ObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
