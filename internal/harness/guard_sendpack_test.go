package harness

import "testing"

// git send-pack sends commits as a push does but runs no pre-push hook,
// so the record the judge reads of what left the clone never hears of
// it: it is refused as `git push --no-verify` is, under each spelling.
func TestInspectSendPackSkipsThePrePushRecord(t *testing.T) {
	for _, c := range []string{
		`git send-pack ../pushed.git refs/heads/main`,
		`git -C sub send-pack --all ../pushed.git`,
		`git push ../pushed.git main && git send-pack --force ../pushed.git main`,
	} {
		v, err := Inspect(c)
		if err != nil || len(v.Bypass) == 0 {
			t.Errorf("%q: bypass %v, err %v; want send-pack refused", c, v.Bypass, err)
		}
	}
	for _, c := range []string{`git push ../pushed.git main`, `git help send-pack`, `echo git send-pack`} {
		v, err := Inspect(c)
		if err != nil || len(v.Bypass) != 0 {
			t.Errorf("%q: bypass %v, err %v; want it let through", c, v.Bypass, err)
		}
	}
}
