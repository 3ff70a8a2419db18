module example.invalid/crategood

go 1.22
