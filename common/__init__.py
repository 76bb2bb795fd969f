"""Small pure helpers every app may import; imports nothing of ours."""
