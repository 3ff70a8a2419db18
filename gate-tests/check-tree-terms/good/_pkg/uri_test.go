package uri

var cases = []string{"/home/mart/src/app"}
