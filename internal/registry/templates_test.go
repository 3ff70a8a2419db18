package registry

import (
	"slices"
	"strings"
	"testing"
)

func TestKitTemplatesDirs(t *testing.T) {
	got, err := KitTemplatesDirs([]string{"kits/gate-sdk/", "other"}, nil)
	if err != nil || !slices.Equal(got, []string{"kits/gate-sdk/templates", "other/templates"}) {
		t.Fatalf("no override: %q, %v", got, err)
	}
	got, err = KitTemplatesDirs([]string{"kits/gate-sdk", "other"}, []string{"templates/"})
	if err != nil || !slices.Equal(got, []string{"templates", "other/templates"}) {
		t.Fatalf("override: %q, %v", got, err)
	}
	if _, err := KitTemplatesDirs([]string{"k"}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), KitTemplatesKnob+" names 2 directories") {
		t.Fatalf("two words: %v", err)
	}
}
