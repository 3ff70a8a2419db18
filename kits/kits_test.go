package kits

import (
	"bytes"
	"testing"
)

func TestAllOrderAndContent(t *testing.T) {
	a, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || a[0].Kit != Core {
		t.Fatalf("gate-sdk's table must come first; got %v", a)
	}
	for i, tb := range a {
		if !bytes.Contains(tb.Data, []byte("[kit]")) {
			t.Errorf("%s: embedded table has no [kit] section", tb.Kit)
		}
		if i > 1 && a[i-1].Kit >= tb.Kit {
			t.Errorf("kits after gate-sdk are not in name order: %s then %s", a[i-1].Kit, tb.Kit)
		}
	}
	b, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatal("two calls disagree")
	}
	for i := range a {
		if a[i].Kit != b[i].Kit {
			t.Fatal("order is not stable")
		}
	}
}

func TestDescriptorIsEmbedded(t *testing.T) {
	p, data, ok := Descriptor("check-tree-terms")
	if !ok || p != "gate-sdk/checks/check-tree-terms.gate" || !bytes.Contains(data, []byte("# spec:")) {
		t.Fatalf("check-tree-terms descriptor: %q %q %v", p, data, ok)
	}
	if _, _, ok := Descriptor("check-no-such-gate"); ok {
		t.Fatal("an unshipped name answered a descriptor")
	}
	if _, _, ok := Descriptor("check-tree-term?"); ok {
		t.Fatal("a glob metacharacter must not match every descriptor")
	}
}
