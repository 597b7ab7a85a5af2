"""gzinertia: rigid-body inertia and fluid added mass for Gazebo/SDFormat models."""

__version__ = "0.1.0"
