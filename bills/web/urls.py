from django.urls import path

from bills.web import views

app_name = "bills"
urlpatterns = [
    path("", views.index, name="index"),
    path("upload/chunk", views.upload_chunk, name="upload-chunk"),
    path("upload/finish", views.upload_finish, name="upload-finish"),
    path("uploads/<int:upload_id>/", views.upload_status, name="upload"),
    path("<int:bill_id>/", views.detail, name="detail"),
    path("<int:bill_id>/export.csv", views.export_csv, name="export"),
    path("<int:bill_id>/chart/<str:kind>.svg", views.chart, name="chart"),
    path("<int:bill_id>/delete", views.delete, name="delete"),
]
