"""What the tests share that is not a fixture: checkers and helpers any layer's tests may import."""
