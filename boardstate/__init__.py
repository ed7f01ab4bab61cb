"""boardstate engine."""
