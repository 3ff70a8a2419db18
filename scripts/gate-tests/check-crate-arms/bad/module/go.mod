module example.invalid/cratebad

go 1.22
